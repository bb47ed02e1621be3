INSERT INTO events (id, name, nick, on_day, at_ts, qty, frac) VALUES (1, 'O''Connor', NULL, CAST('2024-01-01' AS DATE), CAST(TO_TIMESTAMP('2024-01-01 10:30:00.5', 'YYYY-MM-DD HH24:MI:SS.FF6') AS TIMESTAMP), 1e3, 0.5);
-- rules: expr.to_date, expr.empty_string_null, data.insert

INSERT INTO events (id, name, nick, on_day, at_ts, qty, frac) VALUES (1, 'O''Connor', NULL, CAST('2024-01-01' AS TIMESTAMP(0)), CAST('2024-01-01 10:30:00.5' AS TIMESTAMP), 1e3, 0.5);
-- rules: expr.to_date, expr.date_type, expr.empty_string_null, data.insert

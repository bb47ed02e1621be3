INSERT INTO events (id, at_ts) VALUES (2, CAST(TO_TIMESTAMP('2023-01-02 09:00:00.123456', 'YYYY-MM-DD HH24:MI:SS.FF6') AS TIMESTAMP));
-- rules: expr.to_date, data.insert

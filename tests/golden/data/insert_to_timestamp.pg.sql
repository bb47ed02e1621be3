INSERT INTO events (id, at_ts) VALUES (2, CAST('2023-01-02 09:00:00.123456' AS TIMESTAMP));
-- rules: expr.to_date, data.insert

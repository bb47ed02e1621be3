INSERT INTO events (id, name, nick, on_day, at_ts, qty, frac) VALUES (1, q'[O'Connor]', '', DATE '2024-01-01', TIMESTAMP '2024-01-01 10:30:00.5', 1e3, .5)

INSERT INTO accounts (acct_id, kind, balance, opened_on, reviewed_on) VALUES (1, 'CHK', 500, DATE '2015-01-01', DATE '2016-01-01');
INSERT INTO accounts (acct_id, kind, balance, opened_on, reviewed_on) VALUES (2, 'SAVE', 1000, DATE '2017-05-01', DATE '2018-05-01');
INSERT INTO entries (entry_id, acct_id, posted_on, amount) VALUES (1, 1, DATE '2022-03-10', 100);
INSERT INTO entries (entry_id, acct_id, posted_on, amount) VALUES (2, 1, DATE '2022-04-05', 40);
INSERT INTO entries (entry_id, acct_id, posted_on, amount) VALUES (3, 2, DATE '2022-07-01', 70);
COMMIT;

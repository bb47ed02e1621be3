INSERT INTO jobs (job_code, job_title) VALUES ('A', 'Alpha');
INSERT INTO jobs (job_code, job_title) VALUES ('B', 'Beta');
INSERT INTO job_log (job_code) VALUES ('A');
-- rules: data.insert_all

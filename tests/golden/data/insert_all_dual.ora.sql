INSERT ALL
  INTO jobs (job_code, job_title) VALUES ('A', 'Alpha')
  INTO jobs (job_code, job_title) VALUES ('B', 'Beta')
  INTO job_log (job_code) VALUES ('A')
SELECT * FROM dual

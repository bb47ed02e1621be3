CREATE OR REPLACE VIEW v_crew_bonus AS
SELECT c.crew_id, NVL(c.bonus, 0) AS bonus FROM crew c;

INSERT INTO teams (team_id, team_name) VALUES (1, 'Deck');
INSERT INTO teams (team_id, team_name) VALUES (2, 'Engine');
INSERT INTO crew (crew_id, last_name, lead_id, team_id, status, bonus) VALUES (10, 'Moreau', NULL, 1, 'A', 100);
INSERT INTO crew (crew_id, last_name, lead_id, team_id, status, bonus) VALUES (11, 'Blake', 10, 1, 'A', 30);
INSERT INTO crew (crew_id, last_name, lead_id, team_id, status, bonus) VALUES (12, 'Ortiz', 10, 2, 'A', 50);
INSERT INTO crew (crew_id, last_name, lead_id, team_id, status, bonus) VALUES (13, 'Chen', 12, 2, 'X', 20);
COMMIT;

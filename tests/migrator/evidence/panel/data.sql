INSERT INTO regions (region_code, label, tier) VALUES ('NORTH', 'North', 1);
INSERT INTO regions (region_code, label, tier) VALUES ('SOUTH', 'South', 2);
INSERT INTO regions (region_code, label, tier) VALUES ('EAST', 'East', NULL);
COMMIT;

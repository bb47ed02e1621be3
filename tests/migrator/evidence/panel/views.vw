CREATE OR REPLACE VIEW v_regions AS
    SELECT region_code, label, tier FROM regions;

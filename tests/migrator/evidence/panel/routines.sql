CREATE OR REPLACE PACKAGE panel_cfg AS
    SUBTYPE t_flag IS VARCHAR2(1);
    c_enabled  CONSTANT t_flag := 'Y';
    c_max_tier CONSTANT NUMBER := 5;
    g_rate     NUMBER := 1.25;
    g_since    DATE;
    FUNCTION is_top (p_tier IN NUMBER) RETURN t_flag;
END panel_cfg;
/

CREATE OR REPLACE PACKAGE BODY panel_cfg AS
    FUNCTION is_top (p_tier IN NUMBER) RETURN t_flag IS
    BEGIN
        IF p_tier >= c_max_tier THEN
            RETURN c_enabled;
        END IF;
        RETURN 'N';
    END is_top;
END panel_cfg;
/

CREATE OR REPLACE TRIGGER v_regions_io
INSTEAD OF INSERT OR UPDATE OR DELETE ON v_regions
FOR EACH ROW
BEGIN
    IF INSERTING THEN
        INSERT INTO regions (region_code, label, tier)
        VALUES (UPPER(:NEW.region_code), :NEW.label, NVL(:NEW.tier, 3));
    ELSIF UPDATING THEN
        UPDATE regions SET label = :NEW.label, tier = NVL(:NEW.tier, tier + 10)
         WHERE region_code = :OLD.region_code;
    ELSE
        DELETE FROM regions WHERE region_code = :OLD.region_code;
    END IF;
END;
/

CREATE OR REPLACE FUNCTION hex_bytes (p_hex IN VARCHAR2) RETURN NUMBER IS
BEGIN
    RETURN UTL_RAW.LENGTH(HEXTORAW(p_hex));
END hex_bytes;
/

CREATE OR REPLACE FUNCTION span_width (p_span IN t_span) RETURN NUMBER IS
BEGIN
    RETURN p_span.width;
END span_width;
/

CREATE OR REPLACE TRIGGER region_notes_biu
BEFORE INSERT OR UPDATE ON region_notes
FOR EACH ROW
BEGIN
    :NEW.stars := LEAST(NVL(:NEW.stars, 3), 5);
    IF UPDATING AND :NEW.body IS NULL THEN
        :NEW.body := :OLD.body || ' (cleared)';
    END IF;
END;
/

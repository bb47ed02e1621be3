-- Oracle Spatial's object types (MDSYS.SDO_GEOMETRY and its parts) without PostGIS.
--
-- A column, variable or INSERT of these types is data: it is stored, read attribute by attribute
-- and compared the way Oracle does with composite types carrying Oracle's attributes in Oracle's
-- order (Oracle Spatial Developer's Guide, "SDO_GEOMETRY Object Type"). They live in schema
-- `mdsys`, Oracle's owner of them, so `MDSYS.SDO_GEOMETRY` keeps its spelling; the unqualified
-- names resolve there as Oracle's public synonyms do (the converter's catalog qualifies them).
-- Spatial operators and functions (SDO_RELATE, SDO_GEOM.*, SDO_UTIL.*, spatial indexes) compute
-- geometry and are not imitated here: the converter reports them as needing PostGIS.
CREATE SCHEMA IF NOT EXISTS mdsys;

DO $$
BEGIN
  -- SDO_POINT_TYPE: AS OBJECT (X NUMBER, Y NUMBER, Z NUMBER)
  IF to_regtype('mdsys.sdo_point_type') IS NULL THEN
    CREATE TYPE mdsys.sdo_point_type AS (x numeric, y numeric, z numeric);
  END IF;
  -- SDO_ELEM_INFO_ARRAY, SDO_ORDINATE_ARRAY: VARRAY (1048576) OF NUMBER, as every VARRAY converts
  -- (a domain over a 1-based array whose size limit is a CHECK)
  IF to_regtype('mdsys.sdo_elem_info_array') IS NULL THEN
    CREATE DOMAIN mdsys.sdo_elem_info_array AS numeric[] CHECK (cardinality(VALUE) <= 1048576);
  END IF;
  IF to_regtype('mdsys.sdo_ordinate_array') IS NULL THEN
    CREATE DOMAIN mdsys.sdo_ordinate_array AS numeric[] CHECK (cardinality(VALUE) <= 1048576);
  END IF;
  -- SDO_GEOMETRY: AS OBJECT (SDO_GTYPE NUMBER, SDO_SRID NUMBER, SDO_POINT SDO_POINT_TYPE,
  --                          SDO_ELEM_INFO SDO_ELEM_INFO_ARRAY, SDO_ORDINATES SDO_ORDINATE_ARRAY)
  IF to_regtype('mdsys.sdo_geometry') IS NULL THEN
    CREATE TYPE mdsys.sdo_geometry AS (
      sdo_gtype numeric, sdo_srid numeric, sdo_point mdsys.sdo_point_type,
      sdo_elem_info mdsys.sdo_elem_info_array, sdo_ordinates mdsys.sdo_ordinate_array);
  END IF;
END
$$;

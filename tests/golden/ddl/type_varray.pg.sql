CREATE DOMAIN phone_list AS varchar(20)[] CHECK (cardinality(VALUE) <= 3);
-- note: collection type phone_list → domain over varchar(20)[] (1-based arrays)
-- rules: ddl.varchar2, ddl.collection_type

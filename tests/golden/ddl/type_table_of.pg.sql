CREATE DOMAIN number_list AS numeric[];
-- note: collection type number_list → domain over numeric[] (1-based arrays)
-- rules: ddl.number_type, ddl.collection_type

CREATE OR REPLACE VIEW public.emp AS SELECT * FROM hr.employees;
-- note: synonym public.emp → view over hr.employees (its column list is fixed at creation)
-- rules: ddl.synonym

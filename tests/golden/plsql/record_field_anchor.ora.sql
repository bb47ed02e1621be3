CREATE OR REPLACE FUNCTION first_argument (p_obj IN VARCHAR2) RETURN VARCHAR2 IS
  TYPE t_arg IS RECORD (
    arg_name ext_arguments.argument_name%TYPE,
    position NUMBER
  );
  l_arg t_arg;
BEGIN
  SELECT argument_name, position INTO l_arg.arg_name, l_arg.position
    FROM ext_arguments WHERE object_name = p_obj AND position = 1;
  RETURN l_arg.arg_name;
END first_argument;
/

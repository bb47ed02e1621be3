REVOKE DELETE ON employees FROM app_role

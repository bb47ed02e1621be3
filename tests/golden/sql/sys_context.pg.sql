SELECT oracompat.sys_context('USERENV', 'SESSION_USER'), oracompat.sys_context('USERENV', 'CURRENT_SCHEMA', 30), oracompat.sys_context('USERENV', 'LANG'), oracompat.sys_context('APP_CTX', 'TENANT')

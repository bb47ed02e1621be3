DELETE FROM audit_log WHERE changed_at < SYSDATE - 30

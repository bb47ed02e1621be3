DELETE FROM audit_log WHERE changed_at < LOCALTIMESTAMP(0) - INTERVAL '30 DAY';
-- rules: expr.date_arith, expr.sysdate, data.insert

DELETE FROM audit_log WHERE changed_at < oracompat.sysdate() - INTERVAL '30 DAY';
-- rules: expr.date_arith, expr.sysdate, data.insert

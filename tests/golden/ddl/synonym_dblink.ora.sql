CREATE SYNONYM remote_emp FOR employees@hq_link

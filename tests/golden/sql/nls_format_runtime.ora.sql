SELECT TO_DATE(d.s, d.f), TO_TIMESTAMP(d.s, d.f), TO_CHAR(SYSDATE, d.f) FROM date_formats d

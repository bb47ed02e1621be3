SELECT oracompat.sysdate(), CURRENT_TIMESTAMP, CAST(DATE_TRUNC('day', oracompat.sysdate()) AS TIMESTAMP(0)), CAST(DATE_TRUNC('month', oracompat.sysdate()) AS TIMESTAMP(0))

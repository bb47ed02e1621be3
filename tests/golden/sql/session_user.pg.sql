SELECT oracompat.ora_user(), u.user FROM dual, users AS u WHERE owner = oracompat.ora_user()

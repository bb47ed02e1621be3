SELECT oracompat.ora_user(), u.user FROM users AS u WHERE owner = oracompat.ora_user()

SELECT USER, u.user FROM dual, users u WHERE owner = USER

"""The Oracle error ↔ SQLSTATE table lives in `harness.errors`: the judge and the translator must
use one table, and the judge (`harness`) may not import the translator (`migrator`)."""

from harness.errors import (  # noqa: F401  (explicit names used by the converter)
    BY_CODE, BY_NAME, ORA_ERRORS, USER_MESSAGE, USER_SQLCODE, app_error_sqlstate, conditions_for_ora,
    ora_for_sqlstate, runtime_sqlcode_cases, sqlstate_for_ora, user_exception_sqlstate,
    FK_CHILD_MESSAGE_PREFIX, object_sqlerrm, runtime_object_cases,
)

"""The Oracle error ↔ SQLSTATE table lives in `harness.errors`: the judge and the translator must
use one table, and the judge (`harness`) may not import the translator (`migrator`)."""

from harness.errors import (  # noqa: F401  (explicit names used by the converter)
    BY_CODE,
    BY_NAME,
    FK_CHILD_MESSAGE_PREFIX,
    ORA_ERRORS,
    USER_MESSAGE,
    USER_SQLCODE,
    app_error_sqlstate,
    conditions_for_ora,
    object_sqlerrm,
    ora_for_sqlstate,
    runtime_object_cases,
    runtime_sqlcode_cases,
    sqlstate_for_ora,
    user_exception_sqlstate,
)

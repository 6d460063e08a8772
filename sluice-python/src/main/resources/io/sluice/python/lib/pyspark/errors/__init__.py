"""The errors of PySpark a data source meets: NOT_IMPLEMENTED from the base classes' default methods."""


class PySparkException(Exception):
    def __init__(self, message=None, errorClass=None, messageParameters=None):
        self._errorClass = errorClass
        self._messageParameters = messageParameters or {}
        if message is None and errorClass == "NOT_IMPLEMENTED":
            message = "[NOT_IMPLEMENTED] %s is not implemented." % self._messageParameters.get("feature", "?")
        elif message is None:
            message = "[%s] %s" % (errorClass, self._messageParameters)
        super().__init__(message)

    def getErrorClass(self):
        return self._errorClass

    def getCondition(self):
        return self._errorClass

    def getMessageParameters(self):
        return self._messageParameters


class PySparkNotImplementedError(PySparkException, NotImplementedError):
    pass


class PySparkValueError(PySparkException, ValueError):
    pass


class PySparkTypeError(PySparkException, TypeError):
    pass


class PySparkRuntimeError(PySparkException, RuntimeError):
    pass

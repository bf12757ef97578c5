"""The settings model: the options table, value kinds, :class:`GPUConfig`, its readers (files,
environment) and its ``ConfigProto`` form.  Applies nothing."""

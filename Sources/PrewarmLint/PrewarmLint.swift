@_exported import PrewarmLintModel
@_exported import PrewarmLintReaders
@_exported import PrewarmLintReporters
@_exported import PrewarmLintClassifier
@_exported import PrewarmLintSessions
@_exported import PrewarmLintConfiguration
@_exported import PrewarmLintRules
@_exported import PrewarmLintInsights

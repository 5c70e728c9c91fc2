/// One message a rule can give: its id (kebab-case, unique within the rule) and its shape — the words it always
/// says, with what varies in ‹angle quotes› and optional parts in [brackets]. A rule declares its messages beside
/// its check, lists them in its description, and gives each finding one of them
/// (``RuleContext/finding(_:_:severity:evidence:)``), so that the documentation and the tests know every message a
/// rule can give (`docs/rules/<id>.md`, "Messages").
public struct RuleMessage: Sendable, Hashable {
    /// Stable within the rule (`keychain-locked`); a finding carries it as ``Finding/messageID``.
    public var id: String
    /// The message's words, with ‹what varies› and [optional parts].
    public var shape: String

    /// A message of a rule.
    public init(id: String, shape: String) {
        self.id = id
        self.shape = shape
    }
}

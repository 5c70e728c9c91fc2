import PrewarmLintSpool
import PrewarmLintModel
import PrewarmLintClassifier
import PrewarmLintRules
import PrewarmLintSessions

/// One sentence a triager can act on, for the report of a pasted document (an issue body, an e-mail): what happened,
/// in the user's terms, from the most severe finding and its session — saying no more than the two show: a phantom
/// logout only where the keychain failure and the prewarm before the user's activation are both in the log, a prewarm
/// only where the session's kind says so.
enum ReportHeadline {
    /// The sentence; nil when no input is a pasted document or there is no finding. With no finding, a hazard or a
    /// prewarm read in a line pasted alone (`FragmentReading`) is said, with what the line cannot show.
    static func sentence(_ report: LintReport) -> String? {
        guard report.inputs.contains(where: { $0.format == "document" }) else { return nil }
        var chosen: Finding?
        for finding in report.findings {
            guard let best = chosen else { chosen = finding; continue }
            if finding.severity > best.severity || (finding.severity == best.severity && rank(finding.ruleID) < rank(best.ruleID)) {
                chosen = finding
            }
        }
        guard let finding = chosen else { return fragmentSentence(report) }
        var session: LaunchSession?
        for (index, id) in report.sessionIDs.enumerated() where id == finding.sessionID {
            session = report.sessions[index]
            break
        }
        return sentence(finding, session: session)
    }

    /// The sentence of a report with no finding whose fragments show a hazard or a prewarm.
    private static func fragmentSentence(_ report: LintReport) -> String? {
        let hazard = report.fragments.first { $0.meaning.isHazardEvidence }
        guard let reading = hazard ?? report.fragments.first(where: { $0.meaning == .prewarmRequest }) else { return nil }
        let what = switch reading.meaning {
        case .keychainFailure: "A keychain failure"
        case .dataProtectionFailure: "A protected-data failure"
        case .watchdog: "A watchdog kill"
        case .prewarmRequest: "A prewarm request"
        default: "A \(reading.meaning.rawValue) line"
        }
        return "\(what) was read in a line pasted alone (\(reading.fragment.origin)): no log around it shows which launch it was in, nor when the user opened the app."
    }

    /// Which finding speaks for the report among those of one severity: what users notice first.
    private static func rank(_ ruleID: String) -> Int {
        switch ruleID {
        case "keychain-while-locked": 0
        case "protected-data-before-unlock": 1
        case "launch-watchdog": 2
        case "keychain-before-activation": 3
        case "launch-timer-includes-prewarm": 4
        case "launch-work-during-prewarm": 5
        case "prewarm-wasted": 6
        default: 9
        }
    }

    private static func sentence(_ finding: Finding, session: LaunchSession?) -> String {
        let app = finding.appName
        let line = finding.evidence.first
        // How long before the user's activation the deciding line came, when the session shows both.
        let gap: String? = {
            guard let line, let activation = session?.milestone(.activation),
                  activation.time.microsecondsSinceEpoch >= line.time.microsecondsSinceEpoch else { return nil }
            return SpokenDuration.text(microseconds: activation.time.microseconds(since: line.time))
        }()
        let prewarmShown = session.map { $0.kind == .prewarmThenLaunch && $0.confidence != .guess } ?? false
        switch finding.ruleID {
        case "keychain-while-locked":
            if prewarmShown, let gap {
                return "The -25308 keychain failures of \(app) came from a prewarmed launch \(gap) before the user opened the app, while the keychain was locked: read as signed out, that is a phantom logout."
            }
            if session?.kind == .prewarmUnused {
                return "\(app)'s keychain reads failed with -25308 (keychain locked) in a prewarm the user never opened."
            }
            return "\(app)'s keychain reads failed with -25308 (keychain locked); the log does not show that this launch was a prewarm, nor when the user opened the app."
        case "launch-work-during-prewarm" where prewarmShown && gap != nil:
            return "\(app) ran its launch work during a prewarm, \(gap!) before the user opened it: what it read then was read before the user was there."
        case "launch-watchdog":
            return "The system's watchdog killed \(app) during its launch: \(finding.message)."
        default:
            return "\(app): \(finding.message)."
        }
    }
}

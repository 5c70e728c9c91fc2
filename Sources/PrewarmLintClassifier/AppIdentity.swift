import Foundation
import PrewarmLintModel

/// An app as the log names it: by bundle identifier (daemon identities), by process name
/// (securityd's and the kernel's client names, the app's own lines), and by pid — whichever the
/// lines give. At least one of ``bundleID`` and ``processName`` is set.
public struct AppIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The bundle identifier (`com.example.ledger`), with RunningBoard's decorations removed.
    public var bundleID: String?
    /// The process name (`Ledger Pro`), when known.
    public var processName: String?
    /// The process id, when known.
    public var pid: Int?

    /// An app named by its bundle identifier.
    public init(bundleID: String, processName: String? = nil, pid: Int? = nil) {
        self.bundleID = bundleID
        self.processName = processName
        self.pid = pid
    }

    /// A process named only by its name, such as a securityd client not yet known by bundle id.
    public init(processName: String, pid: Int?) {
        self.bundleID = nil
        self.processName = processName
        self.pid = pid
    }

    /// `com.example.ledger[2231]`, or the process name when the bundle id is unknown.
    public var description: String {
        var name = bundleID ?? processName ?? "?"
        guard let pid else { return name }
        // Written in place rather than interpolated: every closed session's listing key is one.
        return name.withUTF8 { utf8 in
            DecimalText.withDigits(of: Int64(pid)) { digits in
                String(unsafeUninitializedCapacity: utf8.count + digits.count + 2) { text in
                    _ = text.initialize(fromContentsOf: utf8)
                    text[utf8.count] = UInt8(ascii: "[")
                    _ = UnsafeMutableBufferPointer(rebasing: text[(utf8.count + 1)...]).initialize(fromContentsOf: digits)
                    text[utf8.count + 1 + digits.count] = UInt8(ascii: "]")
                    return utf8.count + digits.count + 2
                }
            }
        }
    }
}

/// Finds app identities in daemon messages.
///
/// The spellings, from `docs/research/message-templates.md` and the real excerpts:
/// - RunningBoard, iOS 17+: `[app<com.example.ledger(501)>:2231]`, `app<com.example.ledger(BED36376-…)>`
///   (a persona in parentheses);
/// - iOS 14–16: `[application<com.AppCo.MyApp>:432]`, `application<com.xyz>`;
/// - macOS: `app<application.com.mowglii.ItsycalApp.35153645.35153651(501)>`;
/// - `xpcservice<com.example.widget([app<com.example>:2231])>:2240`: an identity nested in another
///   process's (an extension, a WebKit service) names that process's host; the line is about the outer
///   process (pid 2240), not the app: ``firstMention(in:)`` says so (``Mention/isNested``);
/// - `[app<…>:-1]` before a pid exists (FrontBoard's proem), read as no pid;
/// - `Received state update for 9529 (app<…>, running-active-Visible` (pid first);
/// - SpringBoard `Application process state changed for com.x: <…; pid: 1957; …>`,
///   `Received request to open "com.x" from debugserver:1461.`,
///   `[sceneID:com.x-default]`, `Prewarming for launch of com.x`; dasd `Attempting prewarm for com.x`.
public enum AppIdentityParser {
    /// An app identity as a line mentions it.
    public struct Mention: Sendable, Hashable {
        /// The app, as the identity names it.
        public var identity: AppIdentity
        /// Whether the identity is nested in another process's identity
        /// (`xpcservice<com.apple.WebKit.Networking([app<com.example>:2231])>:2240`): then it names that
        /// process's host, and what the line says (a state, a suspension, an exit) is about the outer
        /// process, not the app.
        public var isNested: Bool
    }

    /// The first app identity in `message`, or nil; nested or not (see ``firstMention(in:)``).
    public static func firstIdentity(in message: String) -> AppIdentity? {
        firstMention(in: message)?.identity
    }

    /// The first app identity in `message`, and whether it is nested in another process's identity.
    public static func firstMention(in message: String) -> Mention? {
        // iOS ≤ 12's assertiond names the process it starts tracking by BackBoard's description of it.
        if message.utf8.starts(with: trackedProcessOpening.utf8), let tracked = trackedProcess(in: message) { return Mention(identity: tracked, isNested: false) }
        if let found = ByteSearch.withBytes(of: message, { utf8 in identity(in: utf8) }) { return found }
        return plainBundleIdentity(in: message).map { Mention(identity: $0, isNested: false) }
    }

    /// How iOS ≤ 12's assertiond starts to track a process: `Now tracking process <BKProcess: 0x100440e10; Appname;
    /// com.company.appname; pid: 893; agency: Application; …>` (real-logs 73).
    static let trackedProcessOpening = "Now tracking process <BKProcess: "

    /// The app of a `Now tracking process <BKProcess: …>` line: its bundle, name and pid, from the description's fields
    /// (address; name; bundle; `pid: N`; …); nil when they are not there.
    static func trackedProcess(in message: String) -> AppIdentity? {
        guard let close = message.firstIndex(of: ">") else { return nil }
        let fields = message[message.index(message.startIndex, offsetBy: trackedProcessOpening.count)..<close]
            .split(separator: ";").map { $0.drop { $0 == " " } }
        guard fields.count >= 4, let pidField = fields.first(where: { $0.hasPrefix("pid: ") }),
              let pid = Int(pidField.dropFirst(5)), pid > 0, pid < 100_000_000 else { return nil }
        let bundle = String(fields[2])
        guard isBundleIdentifier(bundle), bundle.contains(".") else { return nil }
        let name = String(fields[1])
        return AppIdentity(bundleID: bundle, processName: name.isEmpty || name.contains(":") ? nil : name, pid: pid)
    }

    /// The process kinds RunningBoard names other than apps, which may hold the identity of their host
    /// (`xpcservice<…([app<…>:pid])>`, `extension<…>`).
    private static let outerKinds: [StaticString] = ["xpcservice<", "extension<", "appext<"]

    private static func identity(in utf8: UnsafeBufferPointer<UInt8>) -> Mention? {
        // `xpcservice<…([app<…>:pid])>`: the host app inside is named, the outer process is the subject.
        var searchFrom = 0
        var nestedUntil = -1
        // A nested identity is always written `([app<…` or `([application<…`: one scan rules most lines out.
        if find(utf8, "([app", from: 0) != nil {
            var earliestOuter: Int?
            for kind in outerKinds {
                if let at = find(utf8, kind, from: 0), earliestOuter.map({ at < $0 }) ?? true { earliestOuter = at }
            }
            if let outer = earliestOuter, let open = find(utf8, "<", from: outer), let close = matchingClose(utf8, from: open),
               find(utf8, "app<", from: 0).map({ $0 > outer }) ?? true, find(utf8, "application<", from: 0).map({ $0 > outer }) ?? true {
                searchFrom = open + 1
                nestedUntil = close
            }
        }
        var position = searchFrom
        while position < utf8.count {
            guard let open = find(utf8, "<", from: position) else { break }
            position = open + 1
            let isApp = open >= 3 && utf8[open - 3] == UInt8(ascii: "a") && utf8[open - 2] == UInt8(ascii: "p") && utf8[open - 1] == UInt8(ascii: "p")
            let isApplication = !isApp && open >= 11 && utf8[open - 1] == UInt8(ascii: "n") && utf8[(open - 11)..<open].elementsEqual("application".utf8)
            guard isApp || isApplication else { continue }
            let wordStart = open - (isApplication ? 11 : 3)
            if wordStart > 0, isIdentifierByte(utf8[wordStart - 1]) { continue }  // `webapp<`, `myapplication<`
            guard let close = matchingClose(utf8, from: open) else { continue }
            // The bundle's bytes up to a `(persona)` suffix; a String is made once, of what is kept (the general
            // `normalizedBundle` only for macOS's `application.` spelling, which is rare).
            let inner = UnsafeBufferPointer(rebasing: utf8[(open + 1)..<close])
            let cut = inner.firstIndex(of: UInt8(ascii: "(")) ?? inner.count
            guard cut > 0, inner[0] != UInt8(ascii: "<") else { continue }  // empty, `<private>` or another `<…>`
            // A bundle identifier is letters, digits, `.`, `-` and `_` (Apple's rule, and every real line's): anything
            // else is not one, and never reaches a report as a name.
            guard Self.isBundleIdentifier(UnsafeBufferPointer(rebasing: inner[..<cut])) else { continue }
            var bundle = String(decoding: UnsafeBufferPointer(rebasing: inner[..<cut]), as: UTF8.self)
            if cut >= 12, inner[..<12].elementsEqual("application.".utf8) {
                bundle = normalizedBundle(bundle)
                guard !bundle.isEmpty else { continue }
            }
            var pid: Int?
            // `…>:2231]`
            if close + 2 < utf8.count, utf8[close + 1] == UInt8(ascii: ":") {
                var index = close + 2
                var value = 0
                var digits = 0
                while index < utf8.count, utf8[index] >= 0x30, utf8[index] <= 0x39, digits < 9 {
                    value = value * 10 + Int(utf8[index] - 0x30)
                    index += 1
                    digits += 1
                }
                if digits > 0 { pid = value }
            }
            let isNested = open < nestedUntil
            if pid == nil, !isNested, let leading = pidBefore(utf8, identityStart: wordStart) { pid = leading }
            return Mention(identity: AppIdentity(bundleID: bundle, pid: pid), isNested: isNested)
        }
        return nil
    }

    /// Removes RunningBoard's decorations: a `(persona)` suffix, macOS's `application.` prefix and
    /// trailing numeric components.
    static func normalizedBundle(_ raw: String) -> String {
        var bundle = raw
        // On the bytes (a `Character` search breaks graphemes); a `(` always starts a character.
        if let paren = bundle.utf8.firstIndex(of: UInt8(ascii: "(")) { bundle = String(bundle[..<paren]) }
        if bundle.hasPrefix("application.") {
            var parts = bundle.dropFirst("application.".count).split(separator: ".")
            while let last = parts.last, parts.count > 2, last.allSatisfy(\.isNumber) { parts.removeLast() }
            bundle = parts.joined(separator: ".")
        }
        return bundle
    }

    /// `Received state update for 9529 (app<…>, …`: the pid printed before the identity.
    private static func pidBefore(_ utf8: UnsafeBufferPointer<UInt8>, identityStart: Int) -> Int? {
        guard identityStart >= 3, utf8[identityStart - 1] == UInt8(ascii: "(") , utf8[identityStart - 2] == UInt8(ascii: " ") else { return nil }
        var index = identityStart - 3
        var digits: [UInt8] = []
        while index >= 0, utf8[index] >= 0x30, utf8[index] <= 0x39 { digits.insert(utf8[index], at: 0); index -= 1 }
        guard !digits.isEmpty, index >= 0, utf8[index] == UInt8(ascii: " ") else { return nil }
        return Int(String(decoding: digits, as: UTF8.self))
    }

    /// Identities spelled as a bare bundle id after known phrases; a phrase with a `then` has the id
    /// after that second marker (`Encountered error with prelaunch (%u) of %@: %@`).
    private static let plainPhrases: [(phrase: String, then: String?)] = [
        ("Application process state changed for ", nil), ("Prewarming for launch of ", nil), ("Attempting prewarm for ", nil),
        ("Prelaunched app: ", nil), ("DASDPREWARM Prewarm app success: ", nil), ("DASDPREWARM Prewarm app attempt: ", nil),
        ("DASDPREWARM Prewarm of ", nil), ("Refusing to prewarm ", nil), ("BundleID ", nil),
        ("DASDPREWARM Encountered error launching ", nil), ("Encountered error with prelaunch (", ") of "),
        ("Prewarm terminated for ", nil), ("Prewarm assertion lost for ", nil), ("Requesting prewarm termination for ", nil),
        ("Bootstrapping ", nil), ("[sceneID:", nil), ("(FBSceneManager):sceneID:", nil), ("_mutateContextIfNeeded called for ", nil),
        ("Received request to open \"", nil),
    ]
    private static let plainPhraseBytes = plainPhrases.map { (Array($0.phrase.utf8), $0.then.map { Array($0.utf8) }) }
    /// Rules out, in one pass, the lines holding none of the phrases (most lines of the daemons asked).
    private static let plainPhraseFilter: AnchorFilter = {
        var filter = AnchorFilter()
        for (pattern, _) in plainPhraseBytes { filter.insert(pattern) }
        return filter
    }()

    /// ``firstIdentity(in:)`` without the phrase prefilter: what the tests compare it with.
    static func firstIdentityTryingEveryPhrase(in message: String) -> AppIdentity? {
        ByteSearch.withBytes(of: message) { utf8 in identity(in: utf8)?.identity } ?? plainBundleIdentity(in: message, prefiltered: false)
    }

    /// Whether ``firstIdentity(in:)`` could find an identity in a message holding `bytes`: `false` only
    /// when it surely finds none (no `app<` or `application<`, and no plain phrase's anchor). What the launch-line
    /// gate (`LaunchLineGate`) asks before building a daemon's line that no template may match.
    @usableFromInline package static func mayHoldIdentity(in bytes: UnsafeRawBufferPointer) -> Bool {
        let utf8 = bytes.assumingMemoryBound(to: UInt8.self)
        var from = 0
        // (Each `<` compared byte by byte: a slice's `elementsEqual` to a string's UTF-8 goes through generic code.)
        func precedes(_ at: Int, _ word: StaticString) -> Bool {
            let length = word.utf8CodeUnitCount
            guard at >= length else { return false }
            for offset in 0..<length where utf8[at - length + offset] != word.utf8Start[offset] { return false }
            return true
        }
        while let at = find(utf8, "<", from: from) {
            if precedes(at, "app") || precedes(at, "application") { return true }
            from = at + 1
        }
        return plainPhraseFilter.mayOccur(in: utf8)
    }

    private static func plainBundleIdentity(in message: String, prefiltered: Bool = true) -> AppIdentity? {
        ByteSearch.withBytes(of: message) { bytes -> AppIdentity? in
            if prefiltered, !plainPhraseFilter.mayOccur(in: bytes) { return nil }
            for ((phrase, _), (pattern, then)) in zip(plainPhrases, plainPhraseBytes) {
                guard let at = ByteSearch.firstOffset(of: pattern, in: bytes) else { continue }
                var end = at + pattern.count
                if let then {
                    guard let thenAt = ByteSearch.firstOffset(of: then, in: UnsafeBufferPointer(rebasing: bytes[end...])) else { continue }
                    end += thenAt + then.count
                }
                let start = end
                while end < bytes.count, !" :,;>)]\"".utf8.contains(bytes[end]) { end += 1 }
                var bundle = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                if phrase.hasSuffix("sceneID:"), bundle.hasSuffix("-default") { bundle.removeLast("-default".count) }
                guard bundle.contains("."), bundle != "<private>", Self.isBundleIdentifier(UnsafeBufferPointer(rebasing: bytes[start..<end])) else { continue }
                let rest = UnsafeBufferPointer(rebasing: bytes[end...])
                var pid: Int?
                if let pidAt = ByteSearch.firstOffset(of: Array("pid: ".utf8), in: rest) {
                    pid = leadingNumber(UnsafeBufferPointer(rebasing: rest[(pidAt + 5)...]))
                } else if phrase == "Prelaunched app: ", let open = ByteSearch.firstOffset(of: [UInt8(ascii: "(")], in: rest) {
                    pid = leadingNumber(UnsafeBufferPointer(rebasing: rest[(open + 1)...]))
                }
                return AppIdentity(bundleID: bundle, pid: pid)
            }
            return nil
        }
    }

    private static func leadingNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var value = 0
        var digits = 0
        for byte in bytes {
            guard byte >= 0x30, byte <= 0x39, digits < 9 else { break }
            value = value * 10 + Int(byte - 0x30)
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// Whether `text` can be a bundle identifier (a report's `bundleIdentifier`, `Identifier:`).
    package static func isBundleIdentifier(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isBundleIdentifier($0) }
    }

    /// Whether `bytes` can be a bundle identifier: 1 to 255 letters, digits, `.`, `-` and `_`.
    static func isBundleIdentifier(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty, bytes.count <= 255 else { return false }
        for byte in bytes where !isIdentifierByte(byte) && byte != UInt8(ascii: "-") { return false }
        return true
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- 0x61 < 26 || byte &- 0x30 < 10 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
    }

    private static func find(_ utf8: UnsafeBufferPointer<UInt8>, _ needle: StaticString, from start: Int) -> Int? {
        guard start < utf8.count else { return nil }
        let tail = UnsafeBufferPointer(rebasing: utf8[start...])
        return ByteSearch.firstOffset(of: needle, in: tail).map { $0 + start }
    }

    /// The `>` closing the `<` at `open`, skipping nested `<…>`.
    private static func matchingClose(_ utf8: UnsafeBufferPointer<UInt8>, from open: Int) -> Int? {
        var depth = 0
        var index = open
        while index < utf8.count, index - open < 512 {
            if utf8[index] == UInt8(ascii: "<") { depth += 1 }
            if utf8[index] == UInt8(ascii: ">") {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return nil
    }
}

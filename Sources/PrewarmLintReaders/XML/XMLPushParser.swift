import CLibXML2

/// What the SAX parser reports. Names and text arrive as UTF-8 bytes valid only during the call:
/// a handler copies what it keeps, and makes a `String` only of what it keeps.
protocol XMLEventHandler: AnyObject {
    /// An element starts; `attributes` are its (name, value) pairs; `location` tells where, when asked.
    func startElement(_ name: UnsafeRawBufferPointer, attributes: XMLAttributes, at location: XMLLocation)
    func endElement(_ name: UnsafeRawBufferPointer, at location: XMLLocation)
    /// Text content, in pieces of any size (CDATA included).
    func characters(_ bytes: UnsafeRawBufferPointer)
}

/// Where the parser is: 1-based line and column, and bytes consumed so far.
struct XMLPosition: Sendable, Hashable {
    var line: Int
    var column: Int
    var byteOffset: Int
}

/// Where the parser is, computed only when asked (three calls into libxml2): most elements never need it.
struct XMLLocation {
    fileprivate let context: xmlParserCtxtPtr?

    var position: XMLPosition {
        guard let context else { return XMLPosition(line: 0, column: 0, byteOffset: 0) }
        return XMLPosition(line: Int(prewarm_xml_line(context)), column: Int(prewarm_xml_column(context)),
                           byteOffset: Int(xmlByteConsumed(context)))
    }
}

/// The attributes of one start tag, read in place.
struct XMLAttributes {
    fileprivate let base: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    let count: Int

    /// The value of the attribute named `name`, as bytes valid during the callback.
    func value(of name: StaticString) -> UnsafeRawBufferPointer? {
        guard let base else { return nil }
        for index in 0..<count {
            // Each attribute is five pointers: localname, prefix, URI, value start, value end.
            guard let local = base[index * 5] else { continue }
            if Self.equals(local, name), let start = base[index * 5 + 3], let end = base[index * 5 + 4] {
                return UnsafeRawBufferPointer(start: start, count: end - start)
            }
        }
        return nil
    }

    private static func equals(_ text: UnsafePointer<xmlChar>, _ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        let expected = name.utf8Start
        for index in 0..<count where text[index] != expected[index] { return false }
        return text[count] == 0
    }
}

/// Why parsing stopped: malformed XML (libxml2's message), or a document refused for safety.
struct XMLFailure: Sendable, Hashable {
    var position: XMLPosition
    var message: String
    /// True when the document was refused (entity declarations, too deep), not malformed.
    var refused: Bool
}

/// libxml2's push parser, fed chunk by chunk, reporting through SAX: the only code that calls libxml2.
///
/// Safe against hostile files by construction:
/// - no network (`XML_PARSE_NONET`), no external DTD or entity ever loaded (no `DTDLOAD`, no
///   entity resolver, no external-subset handler: a plist's DOCTYPE URL is never fetched);
/// - entities are never substituted (no `NOENT`); a document that *declares* an entity (billion
///   laughs, an external entity naming a local file) is refused at the declaration, before any use;
/// - no XInclude (never processed); no `XML_PARSE_HUGE`, so libxml2 keeps its own limits;
/// - element depth is limited (``maximumDepth``); text size is the handler's to limit.
/// The first fatal error stops the parse and is reported with its line and column; what the
/// handler received before it stands.
final class XMLPushParser {
    private final class Box {
        let handler: any XMLEventHandler
        var context: xmlParserCtxtPtr?
        var failure: XMLFailure?
        var depth = 0
        let maximumDepth: Int

        init(handler: any XMLEventHandler, maximumDepth: Int) {
            self.handler = handler
            self.maximumDepth = maximumDepth
        }

        var position: XMLPosition { XMLLocation(context: context).position }

        func refuse(_ message: String) {
            guard failure == nil else { return }
            failure = XMLFailure(position: position, message: message, refused: true)
            if let context { xmlStopParser(context) }
        }
    }

    private let box: Box
    private var finished = false
    private var tags = StartTagGuard()
    /// Bytes fed so far (where a refused tag starts, for the refusal's position).
    private var consumed = 0

    /// Elements deeper than this stop the parse (libxml2's own limit, without `XML_PARSE_HUGE`, is 256).
    static let defaultMaximumDepth = 128

    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    init(handler: any XMLEventHandler, maximumDepth: Int = XMLPushParser.defaultMaximumDepth) {
        _ = Self.initialized
        box = Box(handler: handler, maximumDepth: maximumDepth)
        var sax = xmlSAXHandler()
        sax.initialized = XML_SAX2_MAGIC
        sax.startElementNs = { context, localname, _, _, _, _, attributeCount, _, attributes in
            guard let context, let localname else { return }
            Unmanaged<Box>.fromOpaque(context)._withUnsafeGuaranteedRef { box in
                box.depth += 1
                if box.depth > box.maximumDepth {
                    box.refuse("elements nested deeper than \(box.maximumDepth) levels; the rest of the document is not read")
                    return
                }
                let name = UnsafeRawBufferPointer(start: localname, count: Int(xmlStrlen(localname)))
                box.handler.startElement(name, attributes: XMLAttributes(base: attributes, count: Int(attributeCount)),
                                         at: XMLLocation(context: box.context))
            }
        }
        sax.endElementNs = { context, localname, _, _ in
            guard let context, let localname else { return }
            Unmanaged<Box>.fromOpaque(context)._withUnsafeGuaranteedRef { box in
                box.depth -= 1
                box.handler.endElement(UnsafeRawBufferPointer(start: localname, count: Int(xmlStrlen(localname))),
                                       at: XMLLocation(context: box.context))
            }
        }
        let text: charactersSAXFunc = { context, characters, length in
            guard let context, let characters, length > 0 else { return }
            Unmanaged<Box>.fromOpaque(context)._withUnsafeGuaranteedRef { box in
                box.handler.characters(UnsafeRawBufferPointer(start: characters, count: Int(length)))
            }
        }
        sax.characters = text
        sax.cdataBlock = text
        sax.entityDecl = { context, name, _, _, _, _ in
            guard let context else { return }
            let box = Unmanaged<Box>.fromOpaque(context).takeUnretainedValue()
            let entity = name.map { String(cString: $0) } ?? "?"
            box.refuse("the document declares the entity '\(entity)'; entity declarations are refused, never expanded (billion laughs, external entities)")
        }
        sax.serror = { context, error in
            guard let context, let error else { return }
            let box = Unmanaged<Box>.fromOpaque(context).takeUnretainedValue()
            guard error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue, box.failure == nil else { return }
            var message = error.pointee.message.map { String(cString: $0) } ?? "malformed XML"
            while message.last == "\n" || message.last == " " { message.removeLast() }
            let position = XMLPosition(line: Int(error.pointee.line), column: Int(error.pointee.int2),
                                       byteOffset: box.context.map { Int(xmlByteConsumed($0)) } ?? 0)
            // Errors are fatal here: libxml2 without recovery stops at a malformation anyway.
            box.failure = XMLFailure(position: position, message: message, refused: false)
            if let context = box.context { xmlStopParser(context) }
        }
        let user = Unmanaged.passUnretained(box).toOpaque()
        box.context = xmlCreatePushParserCtxt(&sax, user, nil, 0, nil)
        if let context = box.context {
            _ = xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
        }
    }

    deinit {
        if let context = box.context {
            // The SAX handler struct was copied into the context; the document, if any, is not ours.
            if let document = context.pointee.myDoc { xmlFreeDoc(document) }
            xmlFreeParserCtxt(context)
        }
    }

    /// Why the parse stopped, once it has.
    var failure: XMLFailure? { box.failure }

    /// Feeds the next chunk; `isLast` ends the document (libxml2 then reports what is unclosed).
    func parse(_ bytes: UnsafeRawBufferPointer, isLast: Bool) {
        guard !finished, box.context != nil else { return }
        guard box.failure == nil else { return }
        // A start tag with too many attributes (libxml2 checks each against all before it: 200,000 took
        // 15 s) or too long is refused before libxml2 sees it, what came before it parsed; an oversize comment
        // or CDATA section is cut (``StartTagGuard``).
        let verdict = tags.scan(bytes, from: consumed)
        consumed += bytes.count
        switch verdict {
        case .refuse(let tagStart, let reason, let before):
            feed(before, of: bytes)
            if box.failure == nil {
                box.failure = XMLFailure(position: XMLPosition(line: box.position.line, column: 0, byteOffset: tagStart),
                                         message: reason, refused: true)
                if let context = box.context { xmlStopParser(context) }
            }
            finished = true
        case .feed(let pieces):
            if pieces.count == 1, case .bytes(let range) = pieces[0], range == 0..<bytes.count {
                feed(bytes, isLast: isLast)
            } else {
                feed(pieces, of: bytes)
                if isLast { feed(UnsafeRawBufferPointer(start: nil, count: 0), isLast: true) }
            }
        }
        if isLast { finished = true }
    }

    private func feed(_ pieces: [StartTagGuard.Piece], of bytes: UnsafeRawBufferPointer) {
        for piece in pieces where box.failure == nil {
            switch piece {
            case .bytes(let range): feed(UnsafeRawBufferPointer(rebasing: bytes[range]), isLast: false)
            case .literal(let text): feed(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount), isLast: false)
            }
        }
    }

    private func feed(_ bytes: UnsafeRawBufferPointer, isLast: Bool) {
        guard let context = box.context else { return }
        var offset = 0
        // xmlParseChunk takes an Int32 size.
        repeat {
            let size = min(bytes.count - offset, 1 << 30)
            let last = isLast && offset + size == bytes.count
            let base = bytes.baseAddress.map { UnsafeRawPointer($0 + offset).assumingMemoryBound(to: CChar.self) }
            _ = xmlParseChunk(context, base, Int32(size), last ? 1 : 0)
            offset += size
        } while offset < bytes.count && box.failure == nil
        if isLast { finished = true }
    }
}

/// Watches the bytes before libxml2 parses them, a small state machine across chunks:
/// - a start tag with more than ``maximumAttributes`` attributes (counted by their `=` outside quotes) or
///   over ``maximumBytes`` refuses the document at that tag (libxml2 checks each attribute against all before
///   it: quadratic);
/// - a comment or CDATA section longer than ``maximumSection`` is cut: its bytes beyond are not fed, its end
///   (`-->`, `]]>`) is, so the document goes on (libxml2 would stop at 10 MB, dropping the rest of the file).
///   A cut CDATA is text over the record limit, which the collector skips with its own diagnostic.
/// Declarations and processing instructions are passed over.
struct StartTagGuard {
    /// Attributes one start tag may have: a plist element has none, an xctrace row a few.
    static let maximumAttributes = 256
    /// Bytes one start tag may take (its attribute values included: an xctrace `fmt` holds a message).
    static let maximumBytes = 8 << 20
    /// Bytes of a comment or CDATA section fed to libxml2 (its own limit, without `XML_PARSE_HUGE`, is 10 MB).
    static let maximumSection = 8 << 20

    private enum State { case text, open, bang(Int), tag, quoted(UInt8), comment, cdata, skipped }
    private var state = State.text
    private var tagStart = 0
    private var attributes = 0
    /// The last two bytes seen in a comment or CDATA section (to find its end).
    private var tail: (UInt8, UInt8) = (0, 0)
    /// Bytes of the current comment or CDATA section so far.
    private var sectionBytes = 0
    /// Whether the current section is being cut (its bytes no longer fed).
    private var cutting = false

    private static let cdataOpening = Array("![CDATA[".utf8)

    /// What to do with a chunk: feed these byte ranges (with the synthetic section ends between them), or
    /// refuse the document at a tag.
    enum Verdict {
        case feed([Piece])
        case refuse(tagStart: Int, reason: String, before: [Piece])
    }

    /// A run of the chunk to feed, or a synthetic section end.
    enum Piece {
        case bytes(Range<Int>)
        case literal(StaticString)
    }

    /// Scans `bytes`, which start at `offset` of the document.
    mutating func scan(_ bytes: UnsafeRawBufferPointer, from offset: Int) -> Verdict {
        var pieces: [Piece] = []
        var runStart = cutting ? nil : Optional(0)
        func endRun(at index: Int) {
            if let start = runStart, index > start { pieces.append(.bytes(start..<index)) }
            runStart = nil
        }
        for index in 0..<bytes.count {
            let byte = bytes[index]
            switch state {
            case .text:
                if byte == UInt8(ascii: "<") { state = .open; tagStart = offset + index; attributes = 0 }
            case .open:
                if byte == UInt8(ascii: "!") { state = .bang(1) } else if byte == UInt8(ascii: "?") { state = .skipped } else { state = .tag }
            case .bang(let matched):
                // `<!--` is a comment, `<![CDATA[` a CDATA section, anything else a declaration.
                if matched <= 2, byte == UInt8(ascii: "-"), matched == 1 || matched == 2 {
                    if matched == 2 { state = .comment; sectionBytes = 0; tail = (0, 0) } else { state = .bang(2) }
                } else if matched < Self.cdataOpening.count, byte == Self.cdataOpening[matched] {
                    if matched + 1 == Self.cdataOpening.count { state = .cdata; sectionBytes = 0; tail = (0, 0) } else { state = .bang(matched + 1) }
                } else {
                    state = byte == UInt8(ascii: ">") ? .text : .skipped
                }
            case .tag:
                if byte == UInt8(ascii: ">") { state = .text }
                else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { state = .quoted(byte) }
                else if byte == UInt8(ascii: "=") {
                    attributes += 1
                    if attributes > Self.maximumAttributes {
                        endRun(at: index)
                        return .refuse(tagStart: tagStart, reason: "a start tag with more than \(Self.maximumAttributes) attributes; the rest of the document is not read", before: pieces)
                    }
                }
            case .quoted(let quote):
                if byte == quote { state = .tag }
            case .comment, .cdata:
                let isComment: Bool = { if case .comment = state { return true } else { return false } }()
                let ends = byte == UInt8(ascii: ">") && (isComment ? tail == (UInt8(ascii: "-"), UInt8(ascii: "-")) : tail == (UInt8(ascii: "]"), UInt8(ascii: "]")))
                tail = (tail.1, byte)
                sectionBytes += 1
                if ends {
                    state = .text
                    if cutting {
                        pieces.append(.literal(isComment ? "-->" : "]]>"))
                        cutting = false
                        runStart = index + 1
                    }
                } else if !cutting, sectionBytes > Self.maximumSection {
                    // The rest of this section is not fed; its end will be.
                    cutting = true
                    endRun(at: index)
                }
            case .skipped:
                if byte == UInt8(ascii: ">") { state = .text }
            }
            switch state {
            case .tag, .quoted:
                if offset + index - tagStart > Self.maximumBytes {
                    endRun(at: index)
                    return .refuse(tagStart: tagStart, reason: "a start tag longer than \(Self.maximumBytes) bytes; the rest of the document is not read", before: pieces)
                }
            default:
                break
            }
        }
        endRun(at: bytes.count)
        return .feed(pieces)
    }
}

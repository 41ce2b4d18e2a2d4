import CXML2
import Foundation

/// Receives a document's elements and text in order, from `XMLEventStream`.
protocol XMLEventHandler: AnyObject {
    /// An element opens: its local name and its namespace URI ("" for none), with its
    /// attributes, which can be read during this call only. Returns false to stop reading the
    /// document.
    func startElement(_ name: String, namespace: String, attributes: XMLAttributes) -> Bool
    /// The innermost open element closes.
    func endElement()
    /// Whether the text that comes next is wanted; text nobody reads is never copied.
    var wantsText: Bool { get }
    /// A piece of an element's text (character data or CDATA, entities and character
    /// references decoded), in UTF-8; one element's text may come in several pieces.
    func text(_ utf8: UnsafeRawBufferPointer)
}

/// How reading a document ended.
enum XMLEventStreamEnd: Equatable, Sendable {
    /// The whole document was read and is well-formed.
    case finished
    /// The handler asked to stop.
    case stoppedByHandler
    /// There were no bytes at all.
    case empty
    /// The document type declares entities (at `line`); reading stopped at the declaration,
    /// before any entity was used.
    case declaresEntities(line: Int)
    /// The document is not well-formed: what is wrong in a few words, and the line it was found on.
    case malformed(problem: String, line: Int)
    /// Reading the file failed with this `errno`.
    case readFailed(errno: Int32)
    /// The document has a document type declaration (at `line`), which `refusingDocumentType`
    /// reading refuses; reading stopped there.
    case declaresDocumentType(line: Int)
    /// A start tag (at `line`) has more than `StartTagScanner.maximumAttributes` attributes;
    /// reading stopped before the parser saw it.
    case tooManyAttributes(line: Int)
}

/// Counts the attributes of each start tag in the bytes about to go to libxml2, chunk after
/// chunk. libxml2 2.9 checks each attribute against every earlier one of its tag, so one tag
/// of 200,000 attributes (3 MB) took 30 s, and the 16 MiB an XMP packet may hold, or a track
/// file of any size, would take many minutes, deaf to Ctrl-C. No writer makes tags anywhere
/// near `maximumAttributes` (a Lightroom sidecar's largest has a few hundred). Namespace
/// declarations count: libxml2 compares them alike. A `=` counts outside quotes, in a start
/// tag; comments, CDATA, declarations, processing instructions and end tags are passed over
/// (from `<!`, `<?` or `</` to the next `>`, which may stop early in a comment: only a flood
/// would make that matter).
struct StartTagScanner {
    /// The most attributes a tag may have.
    static let maximumAttributes = 2_000
    private enum State: UInt8 { case text, opened, tag, doubleQuoted, singleQuoted, otherMarkup }
    private var state = State.text
    private var attributes = 0
    /// The line the scan is on, from 1.
    private(set) var line = 1

    /// Whether `bytes` (the next of the document) complete a start tag with too many
    /// attributes; the scan stops there, at `line`.
    mutating func overflows(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for byte in bytes {
            if byte == UInt8(ascii: "\n") { line += 1 }
            switch state {
            case .text:
                if byte == UInt8(ascii: "<") { state = .opened }
            case .opened:
                switch byte {
                case UInt8(ascii: "!"), UInt8(ascii: "?"), UInt8(ascii: "/"): state = .otherMarkup
                case UInt8(ascii: ">"): state = .text
                default:
                    state = .tag
                    attributes = 0
                }
            case .tag:
                switch byte {
                case UInt8(ascii: "\""): state = .doubleQuoted
                case UInt8(ascii: "'"): state = .singleQuoted
                case UInt8(ascii: ">"): state = .text
                case UInt8(ascii: "="):
                    attributes += 1
                    if attributes > Self.maximumAttributes { return true }
                default: break
                }
            case .doubleQuoted:
                if byte == UInt8(ascii: "\"") { state = .tag }
            case .singleQuoted:
                if byte == UInt8(ascii: "'") { state = .tag }
            case .otherMarkup:
                if byte == UInt8(ascii: ">") { state = .text }
            }
        }
        return false
    }
}

/// One attribute of an element, as `XMLAttributes.all` copies it out.
struct XMLAttribute: Equatable, Sendable {
    /// The namespace URI ("" for an attribute without a prefix).
    var namespace: String
    /// The local name.
    var name: String
    /// The value, entities and character references decoded.
    var value: String
}

/// The attributes of the element being opened, read in place from libxml2's buffers: valid
/// only during the `startElement` call that receives them, and copied out only when asked.
struct XMLAttributes {
    /// Five pointers an attribute: local name, prefix, URI, value start, value end (SAX2).
    fileprivate let base: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    fileprivate let count: Int

    /// The value of the attribute with this local name and no namespace.
    subscript(_ wanted: String) -> String? {
        guard let base else { return nil }
        for index in 0..<count {
            let entry = base + index * 5
            guard entry[2] == nil, let name = entry[0], let start = entry[3], let end = entry[4],
                  wanted.withCString({ strcmp($0, UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self)) == 0 })
            else { continue }
            return String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
        }
        return nil
    }

    /// Every attribute, copied into Swift values.
    var all: [XMLAttribute] {
        guard let base else { return [] }
        return (0..<count).compactMap { index in
            let entry = base + index * 5
            guard let name = entry[0], let start = entry[3], let end = entry[4] else { return nil }
            return XMLAttribute(namespace: entry[2].map { String(cString: $0) } ?? "", name: String(cString: name),
                                value: String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self))
        }
    }
}

/// Reads an XML document as a stream of events, in bounded memory whatever its size: the only
/// place geotrip calls libxml2, and everything it hands on is a Swift value.
///
/// libxml2's SAX2 push parser is fed 256 KB at a time from the file (or from memory), with
/// geotrip's own callbacks and no document tree, so memory stays at a chunk plus what the handler
/// keeps. Options: `XML_PARSE_HUGE` lifts the limits libxml2 puts on one text node (10 MB: a
/// KML `<LineString>` of a long day is more) and on lookahead, which a trusted local file may
/// exceed; `XML_PARSE_NONET` forbids the network; no `XML_PARSE_NOENT`, no DTD loading, no
/// validation, and the external-subset and entity-lookup callbacks are left out, so nothing
/// outside the document is ever read.
///
/// Entities are refused at their declaration. `XML_PARSE_HUGE` also turns off libxml2's guard
/// against entity expansion (billion laughs), and a parameter-entity bomb in the internal subset
/// expands even with the guard on, so the parse stops at the first `<!ENTITY` (general,
/// parameter or unparsed), before any entity is used. That needs the parser context's
/// `entityDecl` callback, which is why this is SAX2 rather than `xmlTextReader`: the reader hides
/// its context and hands control back only after the root element's start tag, whose attributes
/// it has by then expanded.
enum XMLEventStream {
    /// Bytes read and handed to the parser at a time.
    static let chunkSize = 256 * 1024

    /// Reads the document from an open file, from its current offset to its end.
    static func read(fileDescriptor: Int32, into handler: some XMLEventHandler) -> XMLEventStreamEnd {
        parse(handler: handler, untrusted: false) { buffer in readRetrying(fileDescriptor, into: buffer) }
    }

    /// Reads the document from memory.
    ///
    /// `untrusted` is for documents that come inside other files (an XMP packet in a photo, a
    /// sidecar another program wrote): libxml2's default limits stay on (no `XML_PARSE_HUGE`), and
    /// a document type declaration of any kind is refused (`.declaresDocumentType`), since XMP
    /// has no use for one (XMP Specification Part 1, 7.3: "XMP must not use DTDs").
    static func read(data: Data, into handler: some XMLEventHandler, untrusted: Bool = false) -> XMLEventStreamEnd {
        var offset = data.startIndex
        return parse(handler: handler, untrusted: untrusted) { buffer in
            let count = min(buffer.count, data.endIndex - offset)
            data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: offset..<(offset + count))
            offset += count
            return count
        }
    }

    /// libxml2 sets up its global tables once per process; doing it first makes parsing from
    /// several threads at once safe.
    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    /// Feeds the parser what `nextChunk` reads (bytes read, 0 at the end, -1 with `errno` set)
    /// until the document ends, the handler stops it, or it fails.
    private static func parse(handler: some XMLEventHandler, untrusted: Bool,
                              nextChunk: (UnsafeMutableRawBufferPointer) -> Int) -> XMLEventStreamEnd {
        precondition(initialized)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var count = nextChunk(buffer)
        if count < 0 { return .readFailed(errno: errno) }
        if count == 0 { return .empty }

        let session = Session(handler: handler)
        return withExtendedLifetime(session) {
            var callbacks = Session.callbacks(refusingDocumentType: untrusted)
            // The first four bytes go in when the context is made, so that libxml2 detects the
            // encoding (a UTF-16 byte order mark, say) from them; the rest is pushed after.
            let head = min(count, 4)
            guard let context = xmlCreatePushParserCtxt(
                &callbacks, Unmanaged.passUnretained(session).toOpaque(),
                buffer.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(head), nil)
            else {
                return .malformed(problem: "libxml2 could not start (out of memory)", line: 0)
            }
            defer { xmlFreeParserCtxt(context) }
            xmlCtxtUseOptions(context, Int32((untrusted ? 0 : XML_PARSE_HUGE.rawValue) | XML_PARSE_NONET.rawValue))
            session.context = context

            var scanner = StartTagScanner()
            var start = head
            while true {
                // The chunk whole (its first bytes went in with the context, unscanned).
                if scanner.overflows(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { return .tooManyAttributes(line: scanner.line) }
                let status = xmlParseChunk(context, buffer.baseAddress!.assumingMemoryBound(to: CChar.self) + start,
                                           Int32(count - start), 0)
                if session.stopped || status != 0 { break }
                start = 0
                count = nextChunk(buffer)
                if count < 0 { return .readFailed(errno: errno) }
                if count == 0 {
                    xmlParseChunk(context, nil, 0, 1)
                    break
                }
            }
            if let line = session.documentTypeLine { return .declaresDocumentType(line: line) }
            if let line = session.entityLine { return .declaresEntities(line: line) }
            if session.handlerStopped { return .stoppedByHandler }
            if gt_xml_well_formed(context) == 0 {
                let failure = session.firstFatal ?? session.firstError
                let line = failure.map { Int($0.line) } ?? Int(gt_xml_line(context))
                return .malformed(problem: problem(failure?.code), line: line)
            }
            return .finished
        }
    }

    /// A few words for libxml2's error code (`xmlParserErrors`, libxml/xmlerror.h).
    private static func problem(_ code: Int32?) -> String {
        guard let code else { return "the XML parser gave no reason" }
        switch xmlParserErrors(UInt32(bitPattern: code)) {
        case XML_ERR_DOCUMENT_START, XML_ERR_DOCUMENT_EMPTY:
            return "no XML element where the document should start"
        case XML_ERR_DOCUMENT_END:
            return "the document ends early, or goes on after its last element"
        case XML_ERR_INVALID_CHAR:
            return "a character XML does not allow"
        case XML_ERR_ENTITYREF_SEMICOL_MISSING, XML_ERR_UNDECLARED_ENTITY, XML_WAR_UNDECLARED_ENTITY:
            return "an unknown or malformed entity (a bare & must be written &amp;)"
        case XML_ERR_NAME_REQUIRED:
            // libxml2's code both for `& ` and for `< ` in text.
            return "a bare & or < in text (they must be written &amp; and &lt;)"
        case XML_ERR_UNKNOWN_ENCODING, XML_ERR_UNSUPPORTED_ENCODING, XML_ERR_INVALID_ENCODING:
            return "text that is not in the declared encoding"
        case XML_ERR_ATTRIBUTE_NOT_STARTED, XML_ERR_ATTRIBUTE_NOT_FINISHED, XML_ERR_ATTRIBUTE_WITHOUT_VALUE,
             XML_ERR_ATTRIBUTE_REDEFINED:
            return "a malformed attribute"
        case XML_ERR_LT_REQUIRED, XML_ERR_GT_REQUIRED, XML_ERR_TAG_NOT_FINISHED:
            return "a tag that is not closed"
        case XML_ERR_TAG_NAME_MISMATCH, XML_ERR_NOT_WELL_BALANCED:
            return "a closing tag that does not match its opening tag"
        case XML_ERR_EXTRA_CONTENT:
            return "content after the last element"
        case XML_ERR_RESERVED_XML_NAME:
            return "an XML declaration (<?xml …?>) that is not at the very start"
        case XML_ERR_INTERNAL_ERROR:
            // libxml2's code for its own limits (a name, value or text of more than 10 MB).
            return "a value or text longer than the XML parser takes (10 MB)"
        default:
            return "XML parser error \(code)"
        }
    }
}

/// `read(2)` into `buffer`, again when a signal interrupts it: bytes read, 0 at the end, -1 with `errno`.
private func readRetrying(_ fileDescriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    while true {
        let count = read(fileDescriptor, buffer.baseAddress, buffer.count)
        if count >= 0 || errno != EINTR { return count }
    }
}

/// The state of one parse, reached from libxml2's callbacks through their context pointer.
private final class Session {
    /// An error as libxml2 reported it: its `xmlParserErrors` code and line.
    struct Failure {
        var code: Int32
        var line: Int32
    }

    /// Who receives the events.
    let handler: any XMLEventHandler
    /// Set once the context exists, before any callback can run.
    var context: xmlParserCtxtPtr?
    /// Where the first entity was declared.
    var entityLine: Int?
    /// Where a refused document type declaration was.
    var documentTypeLine: Int?
    /// Whether the handler asked to stop.
    var handlerStopped = false
    /// The first fatal (well-formedness) error, and the first error of any kind.
    var firstFatal: Failure?
    var firstError: Failure?
    /// Element and namespace names as Swift strings, by the address of libxml2's interned copy:
    /// libxml2 keeps every name once in its dictionary, so a name is made into a `String` once,
    /// not once per element. A track file uses a dozen names, so a short list searched in order
    /// beats hashing; bounded, in case a build of libxml2 did not intern them.
    private var names: [(UnsafeRawPointer, String)] = []

    /// A session for one document.
    init(handler: any XMLEventHandler) {
        self.handler = handler
    }

    /// Whether reading has stopped early, so no more events go to the handler.
    var stopped: Bool { handlerStopped || entityLine != nil || documentTypeLine != nil }

    /// The session behind a callback's context pointer.
    static func from(_ pointer: UnsafeMutableRawPointer?) -> Session {
        Unmanaged<Session>.fromOpaque(pointer!).takeUnretainedValue()
    }

    /// An interned libxml2 name as a String ("" for none).
    func name(_ pointer: UnsafePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        let address = UnsafeRawPointer(pointer)
        for (known, name) in names where known == address { return name }
        let name = String(cString: pointer)
        if names.count < 64 { names.append((address, name)) }
        return name
    }

    /// Asks libxml2 to stop: it returns from the chunk being parsed without more callbacks.
    func stop() {
        if let context { xmlStopParser(context) }
    }

    /// Only SAX2's namespace-aware element callbacks, text, the entity declarations (to refuse
    /// them) and the structured error callback; nothing that builds a tree or loads a DTD.
    static func callbacks(refusingDocumentType: Bool) -> xmlSAXHandler {
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        sax.startElementNs = { context, localName, _, uri, _, _, attributeCount, _, attributes in
            let session = Session.from(context)
            guard !session.stopped else { return }
            let attributes = XMLAttributes(base: attributes, count: Int(attributeCount))
            if !session.handler.startElement(session.name(localName), namespace: session.name(uri), attributes: attributes) {
                session.handlerStopped = true
                session.stop()
            }
        }
        sax.endElementNs = { context, _, _, _ in
            let session = Session.from(context)
            guard !session.stopped else { return }
            session.handler.endElement()
        }
        let text: charactersSAXFunc = { context, bytes, length in
            let session = Session.from(context)
            guard !session.stopped, session.handler.wantsText, let bytes, length > 0 else { return }
            session.handler.text(UnsafeRawBufferPointer(start: bytes, count: Int(length)))
        }
        sax.characters = text
        sax.ignorableWhitespace = text
        sax.cdataBlock = text
        sax.entityDecl = { context, _, _, _, _, _ in
            Session.from(context).refuseEntities()
        }
        sax.unparsedEntityDecl = { context, _, _, _, _ in
            Session.from(context).refuseEntities()
        }
        if refusingDocumentType {
            // Called at `<!DOCTYPE`, before its internal subset is parsed, so no declaration in
            // it (entity, or a reference to an external subset) is ever acted on.
            sax.internalSubset = { context, _, _, _ in
                let session = Session.from(context)
                if session.documentTypeLine == nil { session.documentTypeLine = Int(gt_xml_line(session.context)) }
                session.stop()
            }
        }
        sax.serror = { context, error in
            guard let context, let error else { return }
            Session.from(context).record(code: error.pointee.code, level: error.pointee.level, line: Int32(error.pointee.line))
        }
        return sax
    }

    /// An entity declaration: note where, and stop before anything can use it.
    func refuseEntities() {
        if entityLine == nil { entityLine = Int(gt_xml_line(context)) }
        stop()
    }

    /// Keeps the first error of each kind; libxml2 may report more after the first.
    func record(code: Int32, level: xmlErrorLevel, line: Int32) {
        // libxml2 reports XML_ERR_USER_STOP for its own xmlStopParser.
        guard code != Int32(XML_ERR_USER_STOP.rawValue) else { return }
        if level == XML_ERR_FATAL, firstFatal == nil { firstFatal = Failure(code: code, line: line) }
        if level.rawValue >= XML_ERR_ERROR.rawValue, firstError == nil { firstError = Failure(code: code, line: line) }
    }
}

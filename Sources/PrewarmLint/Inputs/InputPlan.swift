import PrewarmLintModel
import PrewarmLintReaders

/// What a run reads, decided before anything is classified: each input the user named becomes one source, or — a
/// pasted document of several logs — one source per part (``PastedDocument``), each read as an input of its own and
/// merged with the others by time. Standard input is looked at here too: a document is copied and cut, anything else
/// keeps the bytes read to tell (``standardInputHead``), which its reader reads first. ``SessionPipeline`` reads a plan;
/// it has no branch for documents: a plan's sources are all it sees, and how they relate (the parts of one named
/// input, summed into its summary; separate captures read apart, ``apart``).
package struct InputPlan: Sendable {
    /// One thing read as an input of its own.
    package struct Source: Sendable {
        /// The input it is, or that it is a part of.
        package var input: DiscoveredInput
        /// The index of that input among ``InputPlan/inputs``.
        package var owner: Int
        /// The part of a pasted document it is, when it is one.
        package var part: DocumentPartRead?
        /// How the report names it: the input's name, and for a part the document's lines it spans.
        package var name: String
    }

    /// The inputs as named, in order.
    package let inputs: [DiscoveredInput]
    /// What is read: one source per input, or per part of a pasted document, in input order.
    package private(set) var sources: [Source] = []
    /// The bytes of standard input read to tell whether it is a document, when it is not one: its reader reads them first.
    package private(set) var standardInputHead: [UInt8] = []
    /// The formats the inputs read whole were sniffed as, from the head read to tell whether they are documents: their
    /// readers do not sniff them again.
    package private(set) var sniffedFormats: [LogInput: LogFormat] = [:]
    /// The pasted documents among the inputs, by input index.
    private var documents: [Int: PastedDocument] = [:]

    /// The plan of `inputs`. Up to `cutsDocumentsUpTo` inputs are looked at for pasted documents (beyond, each is read as
    /// it is); `document` is a paste held in memory, already cut, when it is the one input.
    package init(_ inputs: [DiscoveredInput], options: ReadOptions, cutsDocumentsUpTo limit: Int, document: PastedDocument? = nil) {
        self.inputs = inputs
        if let document, inputs.count == 1 {
            documents[0] = document
        } else if inputs.count <= limit {
            for (index, input) in inputs.enumerated() {
                switch input.input {
                case .file:
                    let (document, sniffed) = PastedDocument.cut(file: input, options: options)
                    documents[index] = document
                    if document == nil, let sniffed { sniffedFormats[input.input] = sniffed }
                case .standardInput:
                    let (document, head, sniffed) = PastedDocument.cut(standardInput: options)
                    documents[index] = document
                    standardInputHead = head
                    if document == nil, let sniffed { sniffedFormats[input.input] = sniffed }
                case .logArchive:
                    break
                }
            }
        }
        sources = Self.sources(of: inputs, documents: documents)
    }

    private init(inputs: [DiscoveredInput], documents: [Int: PastedDocument], standardInputHead: [UInt8],
                 sniffedFormats: [LogInput: LogFormat]) {
        self.inputs = inputs
        self.documents = documents
        self.standardInputHead = standardInputHead
        self.sniffedFormats = sniffedFormats
        sources = Self.sources(of: inputs, documents: documents)
    }

    private static func sources(of inputs: [DiscoveredInput], documents: [Int: PastedDocument]) -> [Source] {
        var sources: [Source] = []
        for (index, input) in inputs.enumerated() {
            if let document = documents[index] {
                sources += document.parts.indices.map {
                    Source(input: input, owner: index, part: document.parts[$0], name: document.name(ofPart: $0, in: input.input.name))
                }
            } else {
                sources.append(Source(input: input, owner: index, part: nil, name: input.input.name))
            }
        }
        return sources
    }

    /// Whether the input at `index` is a pasted document read as its parts.
    package func isDocument(_ index: Int) -> Bool { documents[index] != nil }

    /// The bytes of each source, for starting the largest first.
    package var sourceSizes: [Int] {
        let inputSizes = InputParallelism.sizes(of: inputs)
        var sizes: [Int] = []
        for (index, _) in inputs.enumerated() {
            if let document = documents[index] { sizes += document.partSizes } else { sizes.append(inputSizes[index]) }
        }
        return sizes
    }

    /// The plan of the input at `index` alone (a document still cut as it was: it is not read again to be cut).
    package func input(_ index: Int) -> InputPlan {
        InputPlan(inputs: [inputs[index]], documents: documents[index].map { [0: $0] } ?? [:],
                  standardInputHead: inputs[index].input == .standardInput ? standardInputHead : [],
                  sniffedFormats: sniffedFormats[inputs[index].input].map { [inputs[index].input: $0] } ?? [:])
    }

    /// The plans to read when the sources turned out to be separate captures, not one device's logs: each input on its
    /// own; a lone pasted document, each of its parts on its own. Summed up by ``summaries(ofApart:)``.
    package var apart: [InputPlan] {
        guard inputs.count == 1, let document = documents[0] else { return inputs.indices.map(input) }
        return document.parts.indices.map { InputPlan(inputs: inputs, documents: [0: document.part($0)], standardInputHead: [], sniffedFormats: [:]) }
    }

    /// One summary per input from its sources' (in source order): a pasted document's parts summed into its one, and
    /// what went wrong while standard input was copied said.
    package func summaries(from sourceSummaries: [InputSummary]) -> [InputSummary] {
        // Grouped in one pass: a run of 10,000 inputs is 10,000 sources.
        var byInput = [[InputSummary]](repeating: [], count: inputs.count)
        for (source, summary) in zip(sources, sourceSummaries) { byInput[source.owner].append(summary) }
        return inputs.indices.map { index in
            let own = byInput[index]
            guard let document = documents[index] else { return own[0] }
            var summary = document.parts.count == 1 && document.parts[0].isWhole ? own[0] : Self.documentSummary(of: own, input: inputs[index])
            if let problem = document.problem, summary.failure == nil {
                summary.failure = ReaderError(code: .unreadable, input: inputs[index].input.name, message: problem)
            }
            return summary
        }
    }

    /// The summaries of ``apart``'s plans, read one after another: a lone document's parts summed into its one.
    package func summaries(ofApart summaries: [InputSummary]) -> [InputSummary] {
        guard inputs.count == 1, documents[0] != nil else { return summaries }
        return [Self.documentSummary(of: summaries, input: inputs[0])]
    }

    /// The summary of a pasted document read as `parts`' inputs.
    private static func documentSummary(of parts: [InputSummary], input: DiscoveredInput) -> InputSummary {
        var summary = InputSummary(input: input.input.name)
        summary.format = .document
        for part in parts {
            summary.statistics.add(part.statistics)
            summary.untimed.add(part.untimed)
            summary.interrupted = summary.interrupted || part.interrupted
            if summary.failure == nil, let failure = part.failure, failure.code != .unrecognizedFormat { summary.failure = failure }
        }
        return summary
    }
}

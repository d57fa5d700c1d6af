import Foundation
import StateSyncCore

/// The Codable bridge on a typed board state: straight to and from
/// `JSONValue`, against Foundation's coders going through JSON text.
enum CodableBenchmark {
    struct Todo: Codable {
        var id: String
        var title: String
        var done: Bool
    }

    struct Message: Codable {
        var from: String
        var text: String
        var at: String
    }

    struct Board: Codable {
        var todos: [Todo]
        var counters: [String: Int]
        var chat: [Message]
    }

    static func run(_ documents: [(name: String, value: JSONValue)]) throws {
        Timing.printTableHead(
            "Codable bridge on a typed board (µs per call)",
            columns: ["document", "JSONValueEncoder", "JSONEncoder (to text)", "ratio", "JSONValueDecoder", "JSONDecoder (from text)", "ratio"]
        )
        for document in documents {
            var json = document.value
            json["presence"] = nil
            let board = try JSONValueDecoder().decode(Board.self, from: json)
            let text = try JSONEncoder().encode(board)
            let sample = try Timing.bestNanoseconds(rounds: 1, iterations: 1) { blackHole(try JSONValueEncoder().encode(board)) }
            let iterations = Timing.iterations(forSample: sample)
            let encode = try Timing.bestNanoseconds(iterations: iterations) { blackHole(try JSONValueEncoder().encode(board)) }
            let foundationEncode = try Timing.bestNanoseconds(iterations: iterations) { blackHole(try JSONEncoder().encode(board)) }
            let decode = try Timing.bestNanoseconds(iterations: iterations) {
                blackHole(try JSONValueDecoder().decode(Board.self, from: json))
            }
            let foundationDecode = try Timing.bestNanoseconds(iterations: iterations) {
                blackHole(try JSONDecoder().decode(Board.self, from: text))
            }
            print("| \(document.name) | \(Timing.format(encode / 1000)) | \(Timing.format(foundationEncode / 1000)) | "
                + "\(Timing.format(foundationEncode / encode, digits: 2))x | \(Timing.format(decode / 1000)) | "
                + "\(Timing.format(foundationDecode / 1000)) | \(Timing.format(foundationDecode / decode, digits: 2))x |")
        }
    }
}

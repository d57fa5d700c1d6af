import Testing
@testable import WebSocket

@Suite struct WebSocketAcceptTests {
    @Test func rfcExample() {
        #expect(WebSocketAccept.value(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func freshKeysAreValidAndDistinct() {
        let keys = (0..<50).map { _ in WebSocketAccept.makeKey() }
        #expect(keys.allSatisfy { WebSocketAccept.isValidKey($0) && $0.utf8.count == 24 })
        #expect(Set(keys).count == keys.count)
    }

    @Test(arguments: [
        ("dGhlIHNhbXBsZSBub25jZQ==", true),
        ("AAAAAAAAAAAAAAAAAAAAAA==", true),
        ("dGhlIHNhbXBsZSBub25jZQ=", false),   // bad length
        ("dGhlIHNhbXBsZSBub25jZQ", false),    // no padding
        ("dGhlIHNhbXBsZSBub25jZXg=", false),  // 17 bytes
        ("dGhlIHNhbXBsZSBub25j", false),      // 15 bytes
        ("dGhlIHNhbXBsZSBub2*jZQ==", false),  // foreign character
        ("dGhlIHNhbXBsZ=Bub25jZQ==", false),  // padding inside
        ("", false),
    ])
    func keyValidation(key: String, valid: Bool) {
        #expect(WebSocketAccept.isValidKey(key) == valid)
    }

    @Test(arguments: [[UInt8](), [0], [0, 1], [0, 1, 2], Array(0...255)])
    func base64RoundTrips(bytes: [UInt8]) {
        #expect(Base64.decode(Base64.encode(bytes)) == bytes)
    }

    @Test func base64MatchesRFC4648Vectors() {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
        }
    }
}

/// A content fingerprint that recognises a photo after it was moved or renamed.
///
/// It hashes the metadata block (which holds the capture time, the thumbnail and maker notes,
/// so it differs between any two real photos) plus the file size, not the whole file: reading
/// every byte would cost more than everything else an ingest does. Files without a metadata
/// block are hashed over their first bytes instead.
///
/// The hash is 64-bit FNV-1a over 8-byte words followed by a murmur-style finaliser: not
/// cryptographic (nothing here is adversarial), but fast and well spread. geotrip writes its
/// own because no SwiftPM package on this platform offers a small non-cryptographic hash, and
/// swift-crypto's SHA-256 would add a large dependency for 20 lines.
enum Fingerprint {
    /// A 16-hex-digit fingerprint of `bytes` and `fileSize`.
    static func of<C: Collection>(_ bytes: C, fileSize: Int) -> String where C.Element == UInt8 {
        let hex = String(value(bytes, fileSize: fileSize), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The fingerprint `of` writes in hex, as a number.
    static func value<C: Collection>(_ bytes: C, fileSize: Int) -> UInt64 where C.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(truncatingIfNeeded: fileSize)
        let prime: UInt64 = 0x0000_0100_0000_01b3
        let hashedInPlace = bytes.withContiguousStorageIfAvailable { buffer in
            hashWords(buffer, into: &hash, prime: prime)
        } != nil
        if !hashedInPlace {
            Array(bytes).withUnsafeBufferPointer { hashWords($0, into: &hash, prime: prime) }
        }
        hash ^= hash >> 33
        hash &*= 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        hash &*= 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return hash
    }

    private static func hashWords(_ buffer: UnsafeBufferPointer<UInt8>, into hash: inout UInt64, prime: UInt64) {
        let raw = UnsafeRawBufferPointer(buffer)
        let wordCount = raw.count / 8
        for index in 0..<wordCount {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) &* prime
        }
        for index in (wordCount * 8)..<raw.count {
            hash = (hash ^ UInt64(raw[index])) &* prime
        }
        hash = (hash ^ UInt64(raw.count)) &* prime
    }
}

import CTurboJPEG

/// Why a picture could not be decoded or encoded, in a sentence for the photo's diagnostic.
struct ImageCodingFailure: Error, Equatable {
    var reason: String
}

/// Every libjpeg-turbo call geotrip makes (its TurboJPEG API), returning Swift values.
/// TurboJPEG decodes at 1/2, 1/4 or 1/8 scale inside the IDCT, so a 24-megapixel photo becomes a
/// thumbnail without ever being decoded at full size.
enum TurboJPEG {
    /// A decoded picture, and the decoder's warning when the data was damaged but a picture
    /// still came out (a file cut short decodes with grey below the cut).
    struct Decoded {
        var image: RGBImage
        var warning: String?
    }

    /// The most pixels a progressive JPEG may have to be decoded: libjpeg keeps every
    /// coefficient of a progressive picture in memory until its last scan, about 3 bytes a
    /// pixel, so a header claiming 46,340 x 46,340 took 6.5 GB for a 537-byte file. 120
    /// megapixels holds every camera's and phone's progressive JPEG. A baseline JPEG decodes a
    /// few rows at a time, at 1/8 scale for a thumbnail, so its size needs no such bound.
    static let progressivePixelLimit = 120_000_000

    /// 10,000 pixels to a byte: a JPEG of one flat colour takes more (each 8 x 8 block has
    /// bits of its own), so a header claiming that many over so few bytes is not a picture.
    static let pixelsPerByteAtMost = 10_000

    /// The most pixels a JPEG is decoded to (after the scaling that gives a thumbnail its
    /// size): 1/8 of a 2-gigapixel picture.
    static let scaledPixelLimit = 36_000_000

    /// Decodes `jpeg` at the smallest scale whose longer side is still at least `longSide`
    /// (or full size when the picture is smaller).
    static func decode(_ jpeg: [UInt8], atLeast longSide: Int) throws(ImageCodingFailure) -> Decoded {
        guard let handle = tjInitDecompress() else { throw ImageCodingFailure(reason: "libjpeg-turbo could not start a decoder") }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colourspace: Int32 = 0
        guard tjDecompressHeader3(handle, jpeg, UInt(jpeg.count), &width, &height, &subsampling, &colourspace) == 0,
              width > 0, height > 0 else {
            throw ImageCodingFailure(reason: "not a readable JPEG (\(message(handle)))")
        }
        // In Int: a picture of 2^31 pixels or more (libjpeg takes sides up to 65,500) overflows Int32.
        let claimed = Int(width) * Int(height)
        if claimed > progressivePixelLimit, isProgressive(jpeg) != false {
            throw ImageCodingFailure(reason: "it is a progressive JPEG of \(Int(width).grouped) x \(Int(height).grouped) pixels, more than the "
                                     + "\(progressivePixelLimit / 1_000_000) megapixels geotrip decodes for a thumbnail")
        }
        // A progressive picture is held whole while it decodes (hundreds of MB near the bound
        // above); one whose file could not hold that many pixels is not a picture of them.
        if claimed > 16_000_000, jpeg.count < claimed / pixelsPerByteAtMost, isProgressive(jpeg) != false {
            throw ImageCodingFailure(reason: "it claims \(Int(width).grouped) x \(Int(height).grouped) pixels in \(jpeg.count.grouped) bytes, "
                                     + "fewer than any picture of that size takes (a damaged or crafted header); not decoded")
        }
        var (outWidth, outHeight) = (Int(width), Int(height))
        var count: Int32 = 0
        if let factors = tjGetScalingFactors(&count) {
            // Listed largest first; the last that still covers longSide wins.
            for factor in UnsafeBufferPointer(start: factors, count: Int(count)) where factor.num <= factor.denom {
                let (num, denom) = (Int(factor.num), Int(factor.denom))
                let w = (Int(width) * num + denom - 1) / denom
                let h = (Int(height) * num + denom - 1) / denom
                if max(w, h) >= longSide && w * h < outWidth * outHeight { (outWidth, outHeight) = (w, h) }
            }
        }
        // Even at 1/8, a header claiming 65,500 pixels a side asks for 200 MB: more than any
        // camera's picture at the scale a thumbnail needs.
        guard outWidth * outHeight <= scaledPixelLimit else {
            throw ImageCodingFailure(reason: "it claims \(Int(width).grouped) x \(Int(height).grouped) pixels, more than geotrip decodes for a thumbnail")
        }
        // A print workflow's CMYK (or YCCK) JPEG has no RGB conversion in libjpeg: it is decoded
        // as ink and turned into light here (`rgb(fromCMYK:)`).
        let ink = colourspace == Int32(TJCS_CMYK.rawValue) || colourspace == Int32(TJCS_YCCK.rawValue)
        var pixels = [UInt8](repeating: 0, count: outWidth * outHeight * (ink ? 4 : 3))
        let status = tjDecompress2(handle, jpeg, UInt(jpeg.count), &pixels, Int32(outWidth), 0, Int32(outHeight),
                                   Int32((ink ? TJPF_CMYK : TJPF_RGB).rawValue), TJFLAG_FASTDCT)
        var warning: String?
        if status != 0 {
            // A warning (a file cut short, a corrupt segment) still leaves a picture; an error does not.
            guard tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) else {
                throw ImageCodingFailure(reason: "the JPEG data is damaged (\(message(handle)))")
            }
            warning = message(handle)
        }
        if ink { pixels = rgb(fromCMYK: pixels, inverted: hasAdobeMarker(jpeg)) }
        return Decoded(image: RGBImage(width: outWidth, height: outHeight, pixels: pixels), warning: warning)
    }

    /// RGB from CMYK pixels as libjpeg gives them: each channel's light is what its ink and the
    /// black leave, (1 - C)(1 - K). Adobe's files (an APP14 `Adobe` marker: Photoshop's, and
    /// every program that writes like it) store the inks inverted, 255 for none, so there the
    /// light is the stored values' product.
    static func rgb(fromCMYK pixels: [UInt8], inverted: Bool) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: pixels.count / 4 * 3)
        for pixel in 0..<pixels.count / 4 {
            let k = Int(inverted ? pixels[4 * pixel + 3] : 255 - pixels[4 * pixel + 3])
            for channel in 0..<3 {
                let left = Int(inverted ? pixels[4 * pixel + channel] : 255 - pixels[4 * pixel + channel])
                rgb[3 * pixel + channel] = UInt8((left * k + 127) / 255)
            }
        }
        return rgb
    }

    /// Whether `jpeg` has Adobe's APP14 segment before its first scan.
    static func hasAdobeMarker(_ jpeg: [UInt8]) -> Bool {
        var index = 2
        while index + 4 <= jpeg.count {
            guard jpeg[index] == 0xFF else { index += 1; continue }
            let marker = jpeg[index + 1]
            if marker == 0xFF { index += 1; continue }
            if marker == 0x01 || (0xD0...0xD8).contains(marker) { index += 2; continue }
            if marker == 0xDA || marker == 0xD9 { return false }
            let length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
            if marker == 0xEE, index + 9 <= jpeg.count, jpeg[index + 4..<index + 9].elementsEqual("Adobe".utf8) { return true }
            index += 2 + length
        }
        return false
    }

    /// Whether the first frame header of `jpeg` is progressive (SOF2, SOF6, SOF10, SOF14:
    /// ITU T.81 table B.1), walking the marker segments from SOI; nil when no frame header is
    /// found. Bytes between segments are skipped to the next `FF`, as libjpeg does.
    static func isProgressive(_ jpeg: [UInt8]) -> Bool? {
        var index = 2
        while index + 4 <= jpeg.count {
            guard jpeg[index] == 0xFF else {
                index += 1
                continue
            }
            let marker = jpeg[index + 1]
            if marker == 0xFF { index += 1; continue }
            if marker == 0x01 || (0xD0...0xD8).contains(marker) { index += 2; continue }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) { return [0xC2, 0xC6, 0xCA, 0xCE].contains(marker) }
            if marker == 0xDA || marker == 0xD9 { return nil }
            index += 2 + (Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3]))
        }
        return nil
    }

    /// The picture as a baseline JPEG at `quality` (1-100), 4:2:0.
    static func encode(_ image: RGBImage, quality: Int) throws(ImageCodingFailure) -> [UInt8] {
        guard let handle = tjInitCompress() else { throw ImageCodingFailure(reason: "libjpeg-turbo could not start an encoder") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            tjCompress2(handle, pixels.baseAddress, Int32(image.width), 0, Int32(image.height), Int32(TJPF_RGB.rawValue),
                        &output, &size, Int32(TJSAMP_420.rawValue), Int32(quality), TJFLAG_FASTDCT)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else { throw ImageCodingFailure(reason: "libjpeg-turbo could not encode (\(message(handle)))") }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    private static func message(_ handle: tjhandle) -> String {
        tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
    }
}

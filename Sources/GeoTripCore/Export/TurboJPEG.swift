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
        var (outWidth, outHeight) = (width, height)
        var count: Int32 = 0
        if let factors = tjGetScalingFactors(&count) {
            // Listed largest first; the last that still covers longSide wins.
            for factor in UnsafeBufferPointer(start: factors, count: Int(count)) where factor.num <= factor.denom {
                let w = (width * factor.num + factor.denom - 1) / factor.denom
                let h = (height * factor.num + factor.denom - 1) / factor.denom
                if max(w, h) >= Int32(longSide) && w * h < outWidth * outHeight { (outWidth, outHeight) = (w, h) }
            }
        }
        var pixels = [UInt8](repeating: 0, count: Int(outWidth) * Int(outHeight) * 3)
        let status = tjDecompress2(handle, jpeg, UInt(jpeg.count), &pixels, outWidth, 0, outHeight,
                                   Int32(TJPF_RGB.rawValue), TJFLAG_FASTDCT)
        var warning: String?
        if status != 0 {
            // A warning (a file cut short, a corrupt segment) still leaves a picture; an error does not.
            guard tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) else {
                throw ImageCodingFailure(reason: "the JPEG data is damaged (\(message(handle)))")
            }
            warning = message(handle)
        }
        return Decoded(image: RGBImage(width: Int(outWidth), height: Int(outHeight), pixels: pixels), warning: warning)
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

/// An 8-bit RGB picture in memory, rows top to bottom, three bytes a pixel: what the decoders
/// hand the thumbnail maker and the encoder takes.
struct RGBImage: Equatable {
    var width: Int
    var height: Int
    var pixels: [UInt8]

    /// The colour at column `x`, row `y`.
    func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let at = (y * width + x) * 3
        return (pixels[at], pixels[at + 1], pixels[at + 2])
    }

    /// The picture shrunk so its longer side is at most `longSide` (area averaging: each output
    /// pixel is the mean of the input pixels it covers, which keeps thin lines and avoids the
    /// shimmer of point sampling). A picture already small enough is returned as it is.
    func fitted(longSide: Int) -> RGBImage {
        let longest = max(width, height)
        guard longest > longSide, width > 0, height > 0 else { return self }
        let outWidth = max(1, (width * longSide + longest / 2) / longest)
        let outHeight = max(1, (height * longSide + longest / 2) / longest)
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * 3)
        for oy in 0..<outHeight {
            let y0 = oy * height / outHeight, y1 = max(y0 + 1, (oy + 1) * height / outHeight)
            for ox in 0..<outWidth {
                let x0 = ox * width / outWidth, x1 = max(x0 + 1, (ox + 1) * width / outWidth)
                var sum = (0, 0, 0)
                for y in y0..<y1 {
                    var at = (y * width + x0) * 3
                    for _ in x0..<x1 {
                        sum.0 += Int(pixels[at])
                        sum.1 += Int(pixels[at + 1])
                        sum.2 += Int(pixels[at + 2])
                        at += 3
                    }
                }
                let n = (y1 - y0) * (x1 - x0), o = (oy * outWidth + ox) * 3
                out[o] = UInt8((sum.0 + n / 2) / n)
                out[o + 1] = UInt8((sum.1 + n / 2) / n)
                out[o + 2] = UInt8((sum.2 + n / 2) / n)
            }
        }
        return RGBImage(width: outWidth, height: outHeight, pixels: out)
    }

    /// The picture as a viewer shows it for EXIF orientation `orientation` (TIFF 6.0 tag 274:
    /// 1 upright, 2 mirrored, 3 upside down, 4 flipped, 5 transposed, 6 turned 90° clockwise to
    /// view, 7 transversed, 8 turned 90° anticlockwise to view). Other values change nothing.
    func upright(orientation: Int?) -> RGBImage {
        guard let orientation, (2...8).contains(orientation) else { return self }
        let swaps = orientation >= 5
        let outWidth = swaps ? height : width, outHeight = swaps ? width : height
        var out = [UInt8](repeating: 0, count: pixels.count)
        for y in 0..<outHeight {
            for x in 0..<outWidth {
                // The stored pixel that shows at (x, y).
                let (sx, sy): (Int, Int)
                switch orientation {
                case 2: (sx, sy) = (width - 1 - x, y)
                case 3: (sx, sy) = (width - 1 - x, height - 1 - y)
                case 4: (sx, sy) = (x, height - 1 - y)
                case 5: (sx, sy) = (y, x)
                case 6: (sx, sy) = (y, height - 1 - x)
                case 7: (sx, sy) = (width - 1 - y, height - 1 - x)
                default: (sx, sy) = (width - 1 - y, x)
                }
                let from = (sy * width + sx) * 3, to = (y * outWidth + x) * 3
                out[to] = pixels[from]
                out[to + 1] = pixels[from + 1]
                out[to + 2] = pixels[from + 2]
            }
        }
        return RGBImage(width: outWidth, height: outHeight, pixels: out)
    }
}

import Foundation

/// Keeps XMP sidecars in step with the catalog (`--write-xmp`, remembered for the trip): a
/// sidecar for every photo placed by a track, its neighbours or a tag; geotrip's own sidecar
/// removed where such a position is gone or the photo left (or moved within) the folder.
/// Another program's sidecar is never written over or removed.
struct SidecarSync {
    let folder: String
    let catalog: Catalog

    /// Sidecars written, and one note per photo whose sidecar was left alone or failed.
    /// `vacated`: paths photos were moved away from in this run.
    func run(vacated: [String] = []) throws(GeoTripError) -> (written: Int, problems: [PhotoDiagnostic]) {
        var written = 0
        var problems: [PhotoDiagnostic] = []
        let root = URL(fileURLWithPath: folder)
        // First the sidecars photos left behind when they left the folder or were renamed
        // (before writing, so a photo that took another's name gets its own sidecar).
        for path in try catalog.removedPaths() + vacated {
            do {
                _ = try XMPSidecar.remove(forPhotoAt: root.appendingPathComponent(path))
            } catch {
                problems.append(PhotoDiagnostic(path: path, message: "its old XMP sidecar could not be removed: \(error)"))
            }
        }
        for record in try catalog.resolutionRows() {
            let photo = root.appendingPathComponent(record.path)
            do {
                if let latitude = record.resolvedLatitude, let longitude = record.resolvedLongitude,
                   let source = record.locationSource, source != .exif {
                    let time = UTCTimestamp.date(record.utcTime)
                    switch try XMPSidecar.write(forPhotoAt: photo, coordinate: Coordinate(latitude: latitude, longitude: longitude),
                                                altitude: nil, utcTime: time, source: source.rawValue,
                                                uncertaintyMeters: record.uncertaintyMeters) {
                    case .written: written += 1
                    case .keptForeign:
                        problems.append(PhotoDiagnostic(path: record.path, message: "its XMP sidecar was written by another program; geotrip left it as it is"))
                    case .unchanged: break
                    }
                } else {
                    _ = try XMPSidecar.remove(forPhotoAt: photo)
                }
            } catch {
                problems.append(PhotoDiagnostic(path: record.path, message: "its XMP sidecar could not be updated: \(error)"))
            }
        }
        return (written, problems)
    }
}

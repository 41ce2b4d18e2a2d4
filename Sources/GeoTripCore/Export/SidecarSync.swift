import Foundation

/// Keeps XMP sidecars in step with the catalog (`--write-xmp`, remembered for the trip): a
/// sidecar for every photo placed by a track, its neighbours or a tag; geotrip's own sidecar
/// removed where such a position is gone or the photo left (or moved within) the folder.
/// Another program's sidecar is never written over or removed.
///
/// The stage is resumable: the pipeline stores what it last finished as the resolution it wrote
/// sidecars for (`SettingKey.sidecarsSynced`), so a run killed part-way leaves that setting
/// behind and the next run writes the rest, whether or not anything else changed.
/// Sidecars of photos that are gone are found in the folder itself (the scan lists every
/// `.xmp`), not from what this run changed, and geotrip's own temporary files left by a killed
/// run are removed.
struct SidecarSync {
    let folder: String
    /// False with `--no-write-xmp`: the sidecars geotrip wrote before are kept in step (a
    /// position that moved, or went), but none is made, and another program's sidecar beside
    /// a photo is no news.
    var creating = true

    /// What a sync did.
    struct Result {
        /// Sidecars created or rewritten.
        var written = 0
        /// One note per photo whose sidecar was left alone or failed.
        var problems: [PhotoDiagnostic] = []
        /// False when the run was cancelled part-way; the stage is then still pending.
        var finished = true
        /// False when a sidecar could not be written or removed, or a photo's folder could not
        /// be read: some sidecar may still say an old position, so the next run syncs again
        /// (and says again what failed) until every one is in step.
        var complete = true
        /// geotrip's own sidecars written or removed, each with its size and time now (nil:
        /// removed), for the photos' stamps (`Catalog.restampOwnSidecars`).
        var restamped: [Restamp] = []
    }

    /// One sidecar of geotrip's written or removed beside the photo at `photo` (relative paths).
    struct Restamp: Equatable {
        var photo: String
        var sidecar: String
        var size: Int64?
        var modifiedNanos: Int64?
    }

    /// Brings every sidecar in line with `photos` (every photo present and read, resolved).
    /// `sidecarFiles` are the `.xmp` files the scan found (relative paths): those beside none of
    /// the photos are removed when they are geotrip's; only such a full sync counts as complete
    /// for the pipeline (`geotrip tag` updates the photos' sidecars without it). `leftovers` are
    /// temporary files of geotrip's own naming to remove. `progress` is told how far it got.
    /// Photos in `unreadFolders` (relative paths: folders the scan could not read) are left
    /// for a later run. `present` are the paths of every photo in the folder, when `photos` are
    /// only some of them (those with a sidecar of geotrip's naming): a sidecar of Lightroom's
    /// naming beside any of them is not one of a photo that is gone.
    func run(_ photos: [ResolvedPhoto], present: [String]? = nil, sidecarFiles: [String]? = nil, leftovers: [String] = [], unreadFolders: [String] = [],
             progress: (Int, Int) -> Void = { _, _ in }) -> Result {
        var result = Result()
        let root = URL(fileURLWithPath: folder)
        for leftover in leftovers where unlink(root.appendingPathComponent(leftover).path) != 0 && errno != ENOENT {
            result.problems.append(PhotoDiagnostic(path: leftover, kind: .sidecarFailed, message: "geotrip's temporary sidecar file left by an interrupted run could not be removed: \(String(cString: strerror(errno)))"))
        }
        let rows = unreadFolders.isEmpty ? photos : photos.filter { !FolderScanner.Listing.lies($0.path, inOneOf: unreadFolders) }
        if rows.count < photos.count { result.complete = false }
        if let sidecarFiles, !sidecarFiles.isEmpty {
            // First the sidecars of photos that left the folder or were renamed (before writing,
            // so a photo that took another's name gets its own sidecar). A photo's other
            // sidecar (`IMG_1.xmp` beside `IMG_1.JPG`, Lightroom's name) is another program's,
            // of a photo that is here: not one to look at.
            let described = Set(rows.map { PathKey($0.path + ".xmp") })
            let othersOfPresent = Set((present ?? photos.map(\.path)).compactMap { path -> PathKey? in
                guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
                return PathKey(path[..<dot] + ".xmp")
            })
            for sidecar in sidecarFiles where sidecar.hasSuffix(".xmp") && !described.contains(PathKey(sidecar))
                && !othersOfPresent.contains(PathKey(sidecar)) {
                let photo = root.appendingPathComponent(String(sidecar.dropLast(4)))
                do {
                    _ = try XMPSidecar.remove(forPhotoAt: photo)
                } catch {
                    result.problems.append(PhotoDiagnostic(path: sidecar, kind: .sidecarFailed, message: "this sidecar of a photo that is gone could not be removed: \(error)"))
                }
            }
        }
        for (index, record) in rows.enumerated() {
            if index % 64 == 0 {
                progress(index, rows.count)
                // Stopping here leaves the stage pending for the next run, which finishes it.
                if Task.isCancelled {
                    result.finished = false
                    return result
                }
            }
            let photo = root.appendingPathComponent(record.path)
            // A name that is not UTF-8 is catalogued in its %XX spelling, which is not a path
            // the file system knows: say so, rather than "there is no photo".
            if record.path.contains("%"), !FileManager.default.fileExists(atPath: photo.path) {
                if record.coordinate != nil, !(record.locationSource?.isPhotosOwn ?? false) {
                    result.problems.append(PhotoDiagnostic(path: record.path, kind: .sidecarFailed, message:
                        "its name is not valid UTF-8 (shown with %XX), and geotrip cannot yet write a sidecar beside such a name; rename the photo to get one"))
                }
                continue
            }
            do {
                if let coordinate = record.coordinate, let source = record.locationSource, !source.isPhotosOwn {
                    switch try XMPSidecar.write(forPhotoAt: photo, coordinate: coordinate, altitude: nil, utcTime: record.utc,
                                                source: source.rawValue, uncertaintyMeters: record.uncertaintyMeters) {
                    case .written:
                        result.written += 1
                        var info = stat()
                        if stat(XMPSidecar.url(forPhotoAt: photo).path, &info) == 0 {
                            result.restamped.append(Restamp(photo: record.path, sidecar: record.path + ".xmp", size: Int64(info.st_size),
                                                            modifiedNanos: ScannedFile.modifiedNanos(info)))
                        }
                    case .keptForeign where creating:
                        result.problems.append(PhotoDiagnostic(path: record.path, kind: .sidecarForeign, message: "its XMP sidecar was written by another program; geotrip left it as it is"))
                    case .keptEdited:
                        // Said whether or not new sidecars are made: its position may be out of date.
                        result.problems.append(PhotoDiagnostic(path: record.path, kind: .sidecarEdited, message:
                            "its XMP sidecar, geotrip's, was edited by another program since, so geotrip leaves it as it is, and the position in it is no longer the photo's; "
                            + "delete the sidecar (keeping what you added to it elsewhere) to have geotrip write it anew"))
                    case .unchanged, .keptForeign: break
                    }
                } else {
                    switch try XMPSidecar.removal(forPhotoAt: photo) {
                    case .removed:
                        result.restamped.append(Restamp(photo: record.path, sidecar: record.path + ".xmp"))
                    case .keptEdited:
                        result.problems.append(PhotoDiagnostic(path: record.path, kind: .sidecarEdited, message:
                            "its XMP sidecar, geotrip's, was edited by another program since, so geotrip leaves it as it is, but the position in it is no longer "
                            + "the photo's (geotrip has none for it now, or the photo gives its own); "
                            + "delete the sidecar (keeping what you added to it elsewhere), or take the position out of it"))
                    case .nothing: break
                    }
                }
            } catch XMPSidecar.Failure.notAFile where !creating {
                // Keeping geotrip's own sidecars in step (no --write-xmp): a folder or a named
                // pipe under the name is none of them, and no news.
            } catch {
                result.problems.append(PhotoDiagnostic(path: record.path, kind: .sidecarFailed, message: "its XMP sidecar could not be updated: \(error)"))
            }
        }
        progress(rows.count, rows.count)
        if result.problems.contains(where: { $0.kind == .sidecarFailed }) { result.complete = false }
        return result
    }
}

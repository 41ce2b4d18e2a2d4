/// The journal's Mustache templates. Values are escaped for Markdown by the `MARKDOWN`
/// content type (`{{name}}`); triple braces insert what is already Markdown or must stay byte
/// for byte: front matter from Yams, link targets already percent-encoded, notes blocks, and
/// the photos' lines (`JournalRenderer.photoLine`, escaped the same way).
enum JournalTemplates {
    /// One day: `journal/YYYY-MM-DD.md`.
    static let day = """
        {{% CONTENT_TYPE: MARKDOWN }}
        ---
        {{{frontMatter}}}---

        # {{heading}}

        {{{dayNotes}}}
        {{#visits}}

        ## {{time}} · {{place}}

        {{photoCount}}{{#coordinates}} · {{coordinates}}{{/coordinates}}

        {{{photoLines}}}
        {{{notes}}}
        {{/visits}}
        {{#unplaced}}

        ## {{heading}}

        {{{photoLines}}}
        {{hint}}

        {{{command}}}
        {{/unplaced}}

        """

    /// The notes of visits that are gone: `journal/unplaced-notes.md`.
    static let unplacedNotes = """
        {{% CONTENT_TYPE: MARKDOWN }}
        # {{title}}

        {{intro}}
        {{#notes}}

        ## {{heading}}

        {{{block}}}
        {{/notes}}

        """

    /// The photos no day takes: `journal/undated-photos.md`.
    static let undatedPhotos = """
        {{% CONTENT_TYPE: MARKDOWN }}
        # {{title}}

        {{intro}}

        {{{photoLines}}}
        {{hint}}
        {{#command}}

        {{{.}}}
        {{/command}}

        """
}

import Testing
@testable import GeoTripCore

/// Notes on the trip map: the person's Markdown formatted by cmark-gfm, what it may not do
/// taken out. What each form becomes in a browser is checked in `TripMapBrowserTests`.
@Suite("Notes' Markdown on the map")
struct NoteMarkupTests {
    static func html(_ markdown: String) -> String {
        NoteMarkup.html(markdown, folder: "journal/", page: "2025-06-11.md")
    }

    @Test("Markdown is formatted as CommonMark and GitHub's extensions say, with the person's line breaks")
    func formatting() {
        #expect(Self.html("**Sintra** was _lovely_") == "<p><strong>Sintra</strong> was <em>lovely</em></p>\n")
        #expect(Self.html("first line\nsecond line") == "<p>first line<br />\nsecond line</p>\n", "a line break stays one")
        #expect(Self.html("- a\n- b") == "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n")
        #expect(Self.html("2. two\n3. three") == "<ol start=\"2\">\n<li>two</li>\n<li>three</li>\n</ol>\n")
        #expect(Self.html("~~closed~~ and ~3 km") == "<p><del>closed</del> and ~3 km</p>\n", "one ~ is not a strike")
        #expect(Self.html("see https://example.org/a?b=1&c=2.") == "<p>see <a href=\"https://example.org/a?b=1&amp;c=2\">https://example.org/a?b=1&amp;c=2</a>.</p>\n")
        #expect(Self.html("- [x] tram 28").contains("<input type=\"checkbox\" checked=\"\" disabled=\"\" /> tram 28"))
        #expect(Self.html("| a |\n|---|\n| 1 |").contains("<td>1</td>"))
        // A note's headings sit below the day's h3 on the page: `#` is h4, and none goes past h6.
        #expect(Self.html("# Arrival\n\n## Castelo\n\n#### Tram") == "<h4>Arrival</h4>\n<h5>Castelo</h5>\n<h6>Tram</h6>\n")
        #expect(!Self.html("a[^1]\n\n[^1]: note").contains("footnote"), "no footnotes: notes share one page")
        #expect(Self.html("") == "")
        // Words in their own order: an override would show "evil" as "live"; a mark stays.
        #expect(Self.html("an \u{202E}evil\u{202C} \u{2067}word\u{2069} \u{200F}mark") == "<p>an evil word \u{200F}mark</p>\n")
    }

    @Test("HTML a note holds is shown as the text it is")
    func htmlAsText() {
        #expect(Self.html("a <b>bold</b> <img src=x onerror=alert(1)>")
            == "<p>a &lt;b&gt;bold&lt;/b&gt; &lt;img src=x onerror=alert(1)&gt;</p>\n")
        #expect(Self.html("<script>alert(1)</script>") == "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n")
        #expect(Self.html("<div onclick=\"x\">\nblock\n</div>") == "<p>&lt;div onclick=&quot;x&quot;&gt;<br />\nblock<br />\n&lt;/div&gt;</p>\n")
        // A block of HTML keeps its lines, as the person's other lines are kept.
        #expect(Self.html("<div>\nline two\n</div>") == "<p>&lt;div&gt;<br />\nline two<br />\n&lt;/div&gt;</p>\n")
    }

    @Test("HTML comments are left out, as Markdown previews hide them; in code they are code")
    func commentsLeftOut() {
        #expect(Self.html("<!-- a comment -->") == "")
        #expect(Self.html("Lovely lunch.\n<!-- private: door code 4711 -->") == "<p>Lovely lunch.</p>\n")
        #expect(Self.html("Lunch <!-- door code 4711 --> at noon.") == "<p>Lunch  at noon.</p>\n")
        // Over lines, and the lines it held alone go with it.
        #expect(Self.html("one\n<!-- door\ncode 4711 -->\ntwo") == "<p>one<br />\ntwo</p>\n")
        #expect(Self.html("a <!-- open\nb --> c") == "<p>a<br />\nc</p>\n")
        // Code keeps it: a span, a fenced block of backticks or tildes.
        #expect(Self.html("`<!-- kept -->`") == "<p><code>&lt;!-- kept --&gt;</code></p>\n")
        #expect(Self.html("```\n<!-- kept -->\n```") == "<pre><code>&lt;!-- kept --&gt;\n</code></pre>\n")
        #expect(Self.html("~~~~\n<!-- kept -->\n~~~\n~~~~\n<!-- gone -->") == "<pre><code>&lt;!-- kept --&gt;\n~~~\n</code></pre>\n")
        // Opening a line and never closed, it hides the rest, as a preview does; inside a
        // line and not closed before the paragraph ends, it is text.
        #expect(Self.html("shown\n<!-- never closed\nhidden") == "<p>shown</p>\n")
        #expect(Self.html("Tip: type <!-- to start a comment\n\nDinner at 8.") == "<p>Tip: type &lt;!-- to start a comment</p>\n<p>Dinner at 8.</p>\n")
        #expect(NoteMarkup.withoutComments("Tip: type <!-- to start a comment\n\nDinner at 8.") == "Tip: type <!-- to start a comment\n\nDinner at 8.")
        // An indented code block keeps it.
        #expect(NoteMarkup.withoutComments("Example:\n\n    <!-- kept -->\n") == "Example:\n\n    <!-- kept -->\n")
        #expect(Self.html("Example:\n\n    <!-- kept -->\n") == "<p>Example:</p>\n<pre><code>&lt;!-- kept --&gt;\n</code></pre>\n")
        // The GeoJSON carries the note without it.
        #expect(NoteMarkup.withoutComments("Lovely lunch.\n<!-- private: door code 4711 -->\r\nBack at 5.") == "Lovely lunch.\nBack at 5.")
    }

    @Test("links: the web and mail as they are, a journal-relative one from the map's folder, any other scheme words only",
          arguments: [
              ("[a](https://example.org/x)", "<a href=\"https://example.org/x\">a</a>"),
              ("[a](HTTP://example.org)", "<a href=\"HTTP://example.org\">a</a>"),
              ("[a](mailto:me@example.org)", "<a href=\"mailto:me@example.org\">a</a>"),
              ("[a](../../2025-06-11%20Sintra/IMG_1.JPG)", "<a href=\"journal/../../2025-06-11%20Sintra/IMG_1.JPG\">a</a>"),
              ("[a](<../photos/IMG 1.JPG>)", "<a href=\"journal/../photos/IMG%201.JPG\">a</a>"),
              ("[a](2025-06-12.md)", "<a href=\"journal/2025-06-12.md\">a</a>"),
              ("[a](#lisbon)", "<a href=\"journal/2025-06-11.md#lisbon\">a</a>"),
              ("[a](/home/me/photo.jpg)", "<a href=\"/home/me/photo.jpg\">a</a>"),
              ("[a](//evil.example/x)", "<p>a</p>"),
              ("[a](/\\evil.example/x)", "<p>a</p>"),
              ("[a](javascript:alert(1))", "<p>a</p>"),
              ("[a](JaVaScRiPt:alert(1))", "<p>a</p>"),
              ("[a](vbscript:msgbox)", "<p>a</p>"),
              ("[a](file:///etc/passwd)", "<p>a</p>"),
              ("[a](data:text/html;base64,PHNjcmlwdD4=)", "<p>a</p>"),
              ("[**a** b](javascript:x)", "<p><strong>a</strong> b</p>"),
              ("<javascript:alert(1)>", "<p>javascript:alert(1)</p>"),
              ("[a](https://example.org/\"onmouseover=\"x)", "<a href=\"https://example.org/%22onmouseover=%22x\">a</a>"),
          ])
    func links(markdown: String, expected: String) {
        #expect(Self.html(markdown).contains(expected), "\(Self.html(markdown))")
    }

    @Test("images: the web, the journal's folder and four image data types; any other keeps its description as text")
    func images() {
        #expect(Self.html("![tiles](https://example.org/t.jpg)") == "<p><img src=\"https://example.org/t.jpg\" alt=\"tiles\" /></p>\n")
        #expect(Self.html("![tiles](tiles.jpg)") == "<p><img src=\"journal/tiles.jpg\" alt=\"tiles\" /></p>\n")
        #expect(Self.html("![dot](data:image/png;base64,iVBORw0KGgo=)") == "<p><img src=\"data:image/png;base64,iVBORw0KGgo=\" alt=\"dot\" /></p>\n")
        #expect(Self.html("![svg](data:image/svg+xml;base64,PHN2Zz4=)") == "<p>svg</p>\n")
        #expect(Self.html("![a *b*](javascript:x)") == "<p>a b</p>\n")
        #expect(Self.html("![mail](mailto:me@example.org)") == "<p>mail</p>\n")
        #expect(Self.html("![far](//evil.example/x.png)") == "<p>far</p>\n")
        // Refused links and images inside refused images: each unwrapped, innermost first
        // (an image freed with a link still listed in it was freed twice).
        #expect(Self.html("Photo: ![view from [the tower]()]()") == "<p>Photo: view from the tower</p>\n")
        #expect(Self.html("![[a](javascript:x)](javascript:y)") == "<p>a</p>\n")
        #expect(Self.html("![![b](javascript:x)](javascript:y) [![c](javascript:x)](javascript:y)") == "<p>b c</p>\n")
    }

    @Test("a note longer than 64 KiB is plain text on the map, its lines kept and its markup shown as written")
    func longNotePlain() {
        let line = "Line: *e* [l](y) <b>&</b>\n"
        let long = String(repeating: line, count: NoteMarkup.longestFormatted / line.utf8.count + 1)
        let html = Self.html(long)
        #expect(html.hasPrefix("<p>Line: *e* [l](y) &lt;b&gt;&amp;&lt;/b&gt;<br />\nLine: "))
        #expect(!html.contains("<em>") && !html.contains("<a ") && !html.contains("<b>"))
        #expect(html.components(separatedBy: "<br />").count == long.components(separatedBy: "\n").count)
        // One byte shorter, it is formatted.
        let short = String(long.utf8.prefix(NoteMarkup.longestFormatted))!
        #expect(Self.html(short).contains("<em>e</em>"))
    }

    @Test("a line of hundreds of cells is no table (GitHub's table extension takes the square of a row's cells in time)")
    func manyCells() {
        let row = String(repeating: "|", count: 300)
        #expect(!Self.html("|a|\n|-|\n" + row).contains("<table>"))
        #expect(Self.html("|a|b|\n|-|-|\n|1|2|").contains("<table>"))
    }

    @Test("an address's scheme is read as a browser reads it: a letter, then letters, digits, + - ., up to the first colon")
    func schemes() {
        #expect(NoteMarkup.scheme(of: "https://x") == "https")
        #expect(NoteMarkup.scheme(of: "Web+Cal.x-y:z") == "web+cal.x-y")
        #expect(NoteMarkup.scheme(of: "Day 2: Sintra.md") == nil)
        #expect(NoteMarkup.scheme(of: "../a:b") == nil)
        #expect(NoteMarkup.scheme(of: "2025:06") == nil)
        #expect(NoteMarkup.scheme(of: "photo.jpg") == nil)
        #expect(NoteMarkup.address("java\tscript:alert(1)", image: false, folder: "journal/", page: "p.md") == nil,
                "a browser drops a tab before it reads the scheme")
        #expect(NoteMarkup.address("c:\\photos\\a.jpg", image: false, folder: "journal/", page: "p.md") == nil)
    }
}

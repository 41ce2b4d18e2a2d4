import Foundation
import Testing
@testable import GeoTripCore

/// Language tags as `--lang` and the locale give them (BCP 47, RFC 5646: case-insensitive,
/// a region two letters or three digits, a script four letters; POSIX locale names from the
/// environment, `language_TERRITORY.codeset@modifier`).
@Suite("language tags")
struct LanguageTagTests {
    @Test("a tag is kept in its usual case whichever way it was typed, with a locale's _ as -")
    func canonical() {
        #expect(LanguageTag.canonical("EN") == "en")
        #expect(LanguageTag.canonical("pt-br") == "pt-BR")
        #expect(LanguageTag.canonical("pt_BR") == "pt-BR")
        #expect(LanguageTag.canonical("zh_hant_tw") == "zh-Hant-TW")
        #expect(LanguageTag.canonical("es-419") == "es-419")
        #expect(LanguageTag.canonical("ko") == "ko")
    }

    @Test("what is no language is refused: an unknown language, empty parts, other characters")
    func refused() {
        for text in ["", "e", "zz-bogus", "pt-", "-pt", "pt--BR", "pt BR", "한국어", "en-toolongpart", "12"] {
            #expect(LanguageTag.canonical(text) == nil, "\(text)")
        }
    }

    @Test("the environment's locale gives its language with its region, and C or POSIX none")
    func posixLocale() {
        #expect(LanguageTag.ofPOSIXLocale("pt_BR.UTF-8") == "pt-BR")
        #expect(LanguageTag.ofPOSIXLocale("ko_KR.UTF-8") == "ko-KR")
        #expect(LanguageTag.ofPOSIXLocale("zh_TW.UTF-8") == "zh-TW")
        #expect(LanguageTag.ofPOSIXLocale("sr_RS@latin") == "sr-Latn-RS")
        #expect(LanguageTag.ofPOSIXLocale("de_DE.ISO-8859-15@euro") == "de-DE")
        #expect(LanguageTag.ofPOSIXLocale("de") == "de")
        for name in ["", "C", "POSIX", "C.UTF-8", "zz_ZZ.UTF-8"] {
            #expect(LanguageTag.ofPOSIXLocale(name) == nil, "\(name)")
        }
    }
}

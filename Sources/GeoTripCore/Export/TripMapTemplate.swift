import Mustache

/// The trip map's Mustache template and style sheet. Every `{{name}}` is HTML-escaped by
/// swift-mustache; the `{{{…}}}` insert what the page builds itself: Leaflet's files, the
/// style and script below, the data and the base layer as `ScriptJSON`, and each day's visits
/// (`TripMapPage.visitItem`, which escapes every value as the template would).
enum TripMapTemplate {
    /// The parsed template (a constant of the program: a test checks it parses).
    static let page: MustacheTemplate = {
        do {
            return try MustacheTemplate(string: source)
        } catch {
            preconditionFailure("the trip map template does not parse: \(error)")
        }
    }()

    static let source = #"""
<!DOCTYPE html>
<html lang="{{lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="strict-origin-when-cross-origin">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="geotrip">
<title>{{title}}</title>
<style>{{{leafletStyle}}}</style>
<style>{{{clusterStyle}}}</style>
<style>{{{style}}}</style>
</head>
<body>
<a class="skip" href="#timeline"{{#uiLang}} lang="{{uiLang}}"{{/uiLang}}>{{words.skipToTimeline}}</a>
<header>
{{#libraryIndex}}<p class="up"><a href="{{href}}">{{label}}</a></p>
{{/libraryIndex}}<h1>{{title}}</h1>
<section class="summary" aria-label="{{words.figuresHeading}}">
<dl class="figures">
{{#figures}}<div class="figure"><dt{{#uiLang}} lang="{{uiLang}}"{{/uiLang}}>{{label}}</dt><dd class="value">{{value}}</dd>{{#detail}}<dd class="detail">{{detail}}</dd>{{/detail}}</div>
{{/figures}}</dl>
<figure class="overview"><div id="overview" role="img" aria-label="{{overviewLabel}}"></div><figcaption aria-hidden="true"{{#uiLang}} lang="{{uiLang}}"{{/uiLang}}>{{words.overview}}</figcaption></figure>
</section>
<div class="day-filter" role="group" aria-label="{{words.dayFilter}}">
<button type="button" data-day="all" aria-pressed="true"{{#uiLang}} lang="{{uiLang}}"{{/uiLang}}>{{words.allDays}}</button>
{{#dayChips}}<button type="button" data-day="{{index}}" aria-pressed="false"><span class="swatch" style="background:{{colour}}"></span>{{label}}</button>
{{/dayChips}}</div>
<p id="day-status" class="visually-hidden" role="status"{{#uiLang}} lang="{{uiLang}}"{{/uiLang}}></p>
</header>
<main>
<div id="map" role="region" aria-label="{{words.mapLabel}}"></div>
<section id="timeline" aria-label="{{words.timeline}}">
<h2{{#uiLang}} lang="{{uiLang}}"{{/uiLang}}>{{words.timeline}}</h2>
{{#days}}<section class="day" data-day="{{index}}">
<h3><span class="swatch" style="background:{{colour}}"></span>{{heading}}</h3>
{{#dayNotes}}<div class="notes">{{{dayNotes}}}</div>
{{/dayNotes}}{{#unplaced}}<p class="unplaced"{{#uiLang}} lang="{{uiLang}}"{{/uiLang}}>{{unplaced}}</p>
{{/unplaced}}{{#nothing}}<p class="nothing"{{#uiLang}} lang="{{uiLang}}"{{/uiLang}}>{{nothing}}</p>
{{/nothing}}<ol class="visits" data-key="{{itemsKey}}">{{{visitItems}}}</ol>
</section>
{{/days}}</section>
</main>
<footer id="credits"{{#uiLang}} lang="{{uiLang}}"{{/uiLang}}>
<h2>{{words.credits}}</h2>
<ul>
{{#credits}}<li>{{.}}</li>
{{/credits}}</ul>
<p>{{words.madeWith}}</p>
</footer>
<script type="application/json" id="trip-base" data-key="{{baseKey}}">{{{base}}}</script>
<script type="application/json" id="trip-data">{{{data}}}</script>
{{#days}}<script type="application/json" class="trip-day" data-key="{{jsonKey}}">{{{json}}}</script>
{{/days}}
<script>{{{leafletScript}}}</script>
<script>{{{clusterScript}}}</script>
<script>{{{script}}}</script>
</body>
</html>

"""#

    /// The page's own style: light and dark (prefers-color-scheme), sizes in rem so text
    /// follows the reader's font size, nothing wider than the screen at 390 px. The map's focus
    /// ring is `!important`: Leaflet sets an element's own outline to none on every key and click
    /// (`preventOutline`), which a style sheet's rule otherwise loses to.
    static let style = #"""
:root{--bg:#fbfaf7;--fg:#1c2126;--muted:#56606b;--card:#efece5;--line:#d6d1c6;--sea:#c6dcee;--land:#f4f1e8;--coast:#6f93b0;--border:#9b7f95;--visited:#e8a33d;--overview-land:#d9d4c7;--accent:#0a5fbd;--town:#343a40;--halo:#fbfaf7;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#121619;--fg:#e7eaee;--muted:#a4aeb9;--card:#1d2328;--line:#333c44;--sea:#0d2130;--land:#272c28;--coast:#4d7796;--border:#a58fa5;--visited:#b9802a;--overview-land:#3b413d;--accent:#7db9ff;--town:#d8dde2;--halo:#121619}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font-family:system-ui,-apple-system,"Segoe UI","Noto Sans","Noto Sans CJK KR","Apple SD Gothic Neo","Malgun Gothic",sans-serif;font-size:1rem;line-height:1.5;overflow-wrap:anywhere}
.skip{position:absolute;left:-999rem}.skip:focus{left:1rem;top:1rem;z-index:2000;background:var(--bg);padding:.5rem}
header{padding:1rem;max-width:80rem;margin:0 auto}
h1{font-size:1.5rem;margin:0 0 .75rem;line-height:1.25}
.up{margin:0 0 .25rem}.up a{color:var(--muted)}
.summary{display:flex;flex-wrap:wrap;gap:1rem}
.figures{flex:1 1 18rem;display:grid;grid-template-columns:repeat(auto-fill,minmax(8.5rem,1fr));gap:.5rem;margin:0;align-content:start}
.figure{background:var(--card);border-radius:.5rem;padding:.5rem .75rem;display:flex;flex-direction:column}
.figure dt{color:var(--muted);font-size:.875rem}.figure dd{margin:0}.figure .value{order:-1}
.value{font-size:1.375rem;font-weight:650;display:block;line-height:1.25;white-space:nowrap}.detail{display:block;font-size:.875rem;color:var(--muted)}
.overview{flex:1 1 14rem;max-width:24rem;margin:0}
#overview{height:9rem;border-radius:.5rem;background:var(--sea)}
.overview figcaption{font-size:.8125rem;color:var(--muted)}
.day-filter{display:flex;gap:.375rem;margin-top:.75rem;overflow-x:auto;padding-bottom:.25rem;scrollbar-width:thin}
.day-filter button{flex:none;white-space:nowrap;font:inherit;font-size:.875rem;border:1px solid var(--line);background:var(--card);color:var(--fg);border-radius:999px;padding:.25rem .75rem;cursor:pointer;display:inline-flex;align-items:center;gap:.375rem}
.day-filter button[aria-pressed=true]{border-color:var(--accent);box-shadow:inset 0 0 0 1px var(--accent);font-weight:650}
.swatch{display:inline-block;width:.75rem;height:.75rem;border-radius:50%;flex:none}
main{max-width:80rem;margin:0 auto}
#map{height:62vh;min-height:18rem;background:var(--sea)}
#timeline{padding:0 1rem 1rem;max-width:42rem}
@media (max-width:59.99rem){#map{height:45vh;min-height:14rem}}
@media (max-width:59.99rem) and (min-height:30rem){#map{position:sticky!important;top:0;z-index:500;box-shadow:0 2px 6px rgba(0,0,0,.25)}html{scroll-padding-top:calc(max(45vh,14rem) + .5rem)}}
@media (min-width:60rem){main{display:grid;grid-template-columns:minmax(0,1fr) minmax(20rem,26rem);gap:0 1.5rem;padding:0 1rem}#map{height:max(24rem,calc(100vh - 19rem));position:sticky!important;top:1rem;border-radius:.5rem}#timeline{padding:0}}
h2{font-size:1.25rem}
.day h3{font-size:1.0625rem;display:flex;align-items:center;gap:.5rem;margin:1.25rem 0 .5rem}
.day[hidden]{display:none}
.visits{list-style:none;margin:0;padding:0}
.visit{border-left:3px solid var(--line);padding:.25rem .5rem .5rem .75rem;margin:0 0 .5rem;border-radius:0 .375rem .375rem 0}
.visit.selected{border-left-color:var(--accent);background:var(--card)}
.visit-button{font:inherit;color:inherit;background:none;border:0;padding:.25rem 0;text-align:left;display:flex;gap:.625rem;align-items:flex-start;cursor:pointer;width:100%}
.visit-button:focus-visible,.day-filter button:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.leaflet-container:focus-visible,.leaflet-container .leaflet-marker-icon:focus-visible,.leaflet-container a:focus-visible,.popup-title:focus-visible{outline:3px solid var(--accent)!important;outline-offset:2px}
.badge{flex:none;min-width:1.75rem;height:1.75rem;padding:0 .25rem;border-radius:.875rem;color:#fff;font-weight:700;font-size:.875rem;display:inline-flex;align-items:center;justify-content:center}
.visit-text{display:flex;flex-direction:column;min-width:0}
.visit-name{font-weight:650}.visit-time,.visit-place,.visit-photos,.unplaced,.nothing{color:var(--muted);font-size:.875rem}
.map-empty{position:absolute;z-index:1000;top:50%;left:50%;transform:translate(-50%,-50%);width:max-content;max-width:min(24rem,80%);margin:0;padding:.75rem 1rem;background:var(--bg);color:var(--fg);border-radius:.5rem;box-shadow:0 1px 6px rgba(0,0,0,.35);font-size:.9375rem;text-align:center}
.notes{margin:.25rem 0 .5rem;padding:.375rem .625rem;background:var(--card);border-radius:.375rem;font-size:.9375rem;overflow-wrap:anywhere;overflow-x:auto}
.notes>*{margin:0 0 .5em}.notes>:last-child{margin-bottom:0}
.notes h1,.notes h2,.notes h3,.notes h4,.notes h5,.notes h6{font-size:1em}
.notes ul,.notes ol{padding-left:1.25rem}.notes ul{list-style:disc}.notes ul ul{list-style:circle}.notes li>ul,.notes li>ol{margin:0}
.notes blockquote{margin-left:0;padding-left:.625rem;border-left:3px solid var(--line);color:var(--muted)}
.notes pre{overflow-x:auto}.notes code{font-size:.875em}
.notes img{max-width:100%;height:auto}
.notes table{display:block;overflow-x:auto;border-collapse:collapse}.notes th,.notes td{border:1px solid var(--line);padding:.125rem .375rem;overflow-wrap:normal}
.notes li:has(>input[type=checkbox]){list-style:none;margin-left:-1.25rem}
.notes p,.notes li,.notes h1,.notes h2,.notes h3,.notes h4,.notes h5,.notes h6,.notes blockquote,.notes td,.notes th{unicode-bidi:plaintext;text-align:start}
.notes hr{border:0;border-top:1px solid var(--line)}
.thumbs{display:flex;flex-wrap:wrap;gap:.375rem}
.thumbs img{width:6rem;height:4.5rem;object-fit:cover;border-radius:.25rem;display:block;background:var(--card)}
.more-media{display:inline-flex;align-items:center;justify-content:center;width:6rem;height:4.5rem;border-radius:.25rem;background:var(--card);color:var(--muted);font-weight:650}
.popup .more-media{width:5rem;height:3.75rem}
.more-link{text-decoration:none;border-radius:.25rem}
.more-link:hover .more-media{color:var(--accent)}
.more-link:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.no-thumb{display:inline-flex;align-items:center;justify-content:center;width:6rem;height:4.5rem;border-radius:.25rem;background:var(--card);font-size:.75rem;text-align:center;padding:.25rem;overflow:hidden;overflow-wrap:anywhere;line-height:1.2}
.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
footer{max-width:80rem;margin:0 auto;padding:1rem;color:var(--muted);font-size:.875rem}
footer h2{font-size:1rem}
a,.leaflet-container a{color:var(--accent)}
.leaflet-container{font:inherit;font-size:.8125rem;background:var(--sea)}
.visit-marker{border-radius:50%;border:2px solid #fff;color:#fff;font-weight:700;display:flex;align-items:center;justify-content:center;box-shadow:0 1px 4px rgba(0,0,0,.5);font-size:.75rem;line-height:1;white-space:nowrap}
.visit-icon.selected .visit-marker{outline:3px solid var(--accent);outline-offset:1px}
.spider-leg{stroke:var(--muted)}.group-marker{border-radius:50%;border:3px solid;background:var(--bg);color:var(--fg);font-weight:700;display:flex;align-items:center;justify-content:center;font-size:.8125rem;line-height:1;white-space:nowrap}
.group-video{font-size:.5rem;margin-left:1px}.video-marker{width:18px;height:18px;border-radius:4px;background:#222;color:#fff;border:1px solid #fff;display:flex;align-items:center;justify-content:center;font-size:10px;line-height:1;box-shadow:0 1px 3px rgba(0,0,0,.5)}
.route-arrow span{display:block;width:0;height:0;border-left:6px solid transparent;border-right:6px solid transparent;border-bottom:11px solid #000}
.leaflet-tooltip.town-label{background:none;border:0;box-shadow:none;padding:0 0 0 .125rem;color:var(--town);font-size:.75rem;text-shadow:0 0 2px var(--halo),0 0 2px var(--halo),0 0 3px var(--halo)}
.leaflet-tooltip.town-label:before{display:none}
.town-label.tier-1{font-weight:650;font-size:.8125rem}
.popup p{margin:.125rem 0}.popup .popup-title{margin:0 0 .25rem;font-size:1rem;font-weight:650}
.popup .notes{max-height:8rem;overflow:auto}
.popup .thumbs img{width:5rem;height:3.75rem}
.leaflet-popup-content-wrapper,.leaflet-popup-tip{background:var(--bg);color:var(--fg)}
.leaflet-bar a,.leaflet-bar a:hover,.leaflet-control-layers,.leaflet-control-layers-expanded{background-color:var(--card);color:var(--fg)}
.leaflet-bar a.leaflet-disabled{background-color:var(--card);color:var(--muted);opacity:.5}
.leaflet-container .leaflet-control-attribution{background:var(--bg);color:var(--muted);font-size:.75rem}
.leaflet-container a.leaflet-popup-close-button{color:var(--muted)}
@media (prefers-reduced-motion:reduce){.leaflet-container *{transition:none!important}}
"""#
}

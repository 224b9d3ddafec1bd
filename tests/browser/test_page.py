"""The exported page (index.html) in a real headless Chromium, driven by Playwright.

Environment (set by .ci/run, run_browser):
  PAGE_DIR         a robot-arm export (`robot_arm export --out PAGE_DIR`): index.html, tools.json
  PANDA_PAGE_DIR   the Panda's export (`panda export --out PANDA_PAGE_DIR`)
  MANY_PAGE        the 200-tool page (`many_tools export --out DIR`, then DIR/index.html)
  CHROMIUM         the browser (default /usr/bin/chromium, Debian's package)
  SCREENSHOT_DIR   where the screenshots for review are written (default: PAGE_DIR)

With JavaScript off, every tool and parameter of the robot arm and of the Panda (and every
nested field, result argument and output field) is on the page, visible, and its anchor
resolves; the Panda's page has a row per joint with its anchor and draws the arm in both views
of its envelope; with JavaScript on, the search box narrows the tools by a parameter's name; no
request leaves the page; the 200-tool page reaches its load event in under a second.
"""

import json
import os
import pathlib
import statistics
import time

import pytest
from playwright.sync_api import sync_playwright

PAGE_DIR = pathlib.Path(os.environ["PAGE_DIR"])
PANDA_PAGE_DIR = pathlib.Path(os.environ["PANDA_PAGE_DIR"])
MANY_PAGE = pathlib.Path(os.environ["MANY_PAGE"])
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = pathlib.Path(os.environ.get("SCREENSHOT_DIR", str(PAGE_DIR)))
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]


# --- The id grammar (runtime/src/export/html/anchor.rs), written again here to check it. ---

def segment(name):
    out = []
    for b in name.encode("utf-8"):
        c = chr(b)
        out.append(c if (c.isascii() and c.isalnum()) or c in "_-" else "%%%02X" % b)
    return "".join(out)


def fields(path):
    out = ""
    for step in path:
        if step == "[]":
            out += "[]"
        elif step == "*":
            out += ".*"
        else:
            out += "." + segment(step[1])
    return out


def display(path):
    out = ""
    for step in path:
        if step == "[]":
            out += "[]"
        elif step == "*":
            out += ".*"
        else:
            out += ("." if out else "") + step[1]
    return out


def walk(schema, path, out):
    """Every field of a schema as TOOLS.md lists them: properties, then nested objects, array
    items, map values and the fields of variants."""
    if not isinstance(schema, dict):
        return
    for name, child in (schema.get("properties") or {}).items():
        push(child, path + [("p", name)], out)
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict) and "properties" not in schema and not path:
        push(extra, path + ["*"], out)


def push(child, path, out):
    if not isinstance(child, dict):
        return
    out.append(path)
    if "properties" in child:
        walk(child, path, out)
    items = child.get("items")
    if isinstance(items, dict) and "properties" in items:
        walk(items, path + ["[]"], out)
    extra = child.get("additionalProperties")
    if isinstance(extra, dict) and "properties" in extra:
        walk(extra, path + ["*"], out)
    if "type" not in child:
        for variant in child.get("oneOf") or child.get("anyOf") or []:
            props = variant.get("properties") if isinstance(variant, dict) else None
            if not props:
                continue
            tag = next((k for k, p in props.items() if isinstance(p, dict) and "const" in p), None)
            for name, field in props.items():
                if name != tag:
                    push(field, path + [("p", name)], out)


def expected_ids(page_dir=PAGE_DIR):
    """(id, text of its first cell) of every tool, parameter (the result arguments, `jmespath`
    and `summary`, after the tool's own) and output field of the export."""
    tools = json.loads((page_dir / "tools.json").read_text())["tools"]
    ids = []
    for tool in tools:
        name = tool["name"]
        ids.append((segment(name), None))
        added = (tool.get("_meta") or {}).get("io.toolwright/resultArguments") or []
        schema = dict(tool["inputSchema"])
        properties = schema.get("properties") or {}
        schema["properties"] = {k: v for k, v in properties.items() if k not in added}
        params = []
        walk(schema, [], params)
        walk({"properties": {k: v for k, v in properties.items() if k in added}}, [], params)
        seen = set()
        for path in params:
            anchor = segment(name) + fields(path)
            if anchor not in seen:
                seen.add(anchor)
                ids.append((anchor, display(path)))
        output = tool.get("outputSchema")
        if output:
            if "properties" not in output and isinstance(output.get("anyOf"), list):
                output = output["anyOf"][0]
            results = []
            walk(output, [], results)
            for path in results:
                anchor = segment(name) + ":result" + fields(path)
                if anchor not in seen:
                    seen.add(anchor)
                    ids.append((anchor, display(path)))
    return tools, ids


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def url(path, fragment=""):
    return path.resolve().as_uri() + (("#" + fragment) if fragment else "")


def test_the_grammar_written_here_agrees_with_itself():
    assert segment("a.b") == "a%2Eb"
    assert segment("é") == "%C3%A9"
    assert fields([("p", "waypoints"), "[]", ("p", "x")]) == ".waypoints[].x"


@pytest.mark.parametrize("page_dir", [PAGE_DIR, PANDA_PAGE_DIR], ids=["robot_arm", "panda"])
def test_without_javascript_every_tool_and_parameter_is_there_and_linked(browser, page_dir):
    tools, ids = expected_ids(page_dir)
    params = [i for i, text in ids if text is not None and ":result" not in i]
    if page_dir == PAGE_DIR:
        assert len(tools) >= 9 and len(ids) > 60, (len(tools), len(ids))
        assert "plan_trajectory.waypoints[].x" in params
        assert "grasp_object_force_control.target_position.x" in params
        # The result arguments are parameters with ids of their own.
        assert "plan_trajectory.jmespath" in params and "plan_trajectory.summary" in params
    else:
        assert [t["name"] for t in tools] == ["move_joints", "move_to", "get_state", "stop_arm"]
        assert ["move_joints.positions.panda_joint%d" % i in params for i in range(1, 8)] == [True] * 7
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(url(page_dir / "index.html"))
    # JavaScript is off: the search box stays hidden, and no copy button was added.
    assert not page.locator("input[type=search]").is_visible()
    assert page.locator("button.copy").count() == 0
    for anchor, text in ids:
        element = page.locator('[id="%s"]' % anchor)
        assert element.count() == 1, anchor
        assert element.is_visible(), anchor
        if text is not None:
            assert element.locator("td").first.inner_text().strip() == text, anchor
        # Following the link lands on it: it is the :target and in view.
        page.goto(url(page_dir / "index.html", anchor))
        target = page.locator(":target")
        assert target.count() == 1 and target.get_attribute("id") == anchor, anchor
        assert target.evaluate("e => { const r = e.getBoundingClientRect(); return r.top >= -1 && r.top < innerHeight; }"), anchor
    # Every link into the page lands on an element of the page.
    hrefs = page.eval_on_selector_all("a[href^='#']", "as => as.map(a => a.getAttribute('href').slice(1))")
    assert len(hrefs) > len(ids)
    for fragment in set(hrefs):
        assert page.locator('[id="%s"]' % fragment).count() == 1, fragment
    context.close()


def test_the_panda_s_page_lists_every_joint_and_draws_the_arm(browser):
    """Without JavaScript: a row per joint with its anchor (`:joint.arm.panda_jointN`, its range
    as published), and the arm drawn at its home configuration in both views of its envelope,
    one stroke per capsule of every link published with capsules."""
    tools = json.loads((PANDA_PAGE_DIR / "tools.json").read_text())["tools"]
    robot = tools[0]["_meta"]["io.toolwright/robot"]
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(url(PANDA_PAGE_DIR / "index.html"))
    for joint in robot["joints"]:
        anchor = ":joint.arm.%s" % joint["name"]
        row = page.locator('[id="%s"]' % anchor)
        assert row.count() == 1 and row.is_visible(), anchor
        text = row.inner_text()
        assert joint["name"] in text, (anchor, text)
        for end in ("lower", "upper"):
            assert ("%g" % joint[end]).replace("-", "") in text.replace("−", "").replace("-", ""), (anchor, end, text)
        page.goto(url(PANDA_PAGE_DIR / "index.html", anchor))
        target = page.locator(":target")
        assert target.count() == 1 and target.get_attribute("id") == anchor, anchor
        page.goto(url(PANDA_PAGE_DIR / "index.html"))
    figure = page.locator('[id=":envelope.arm"]')
    assert figure.count() == 1 and figure.is_visible()
    views = figure.locator("svg")
    assert views.count() == 2, views.count()
    capsules = sum(len(link["capsules"]) for link in robot["links"])
    drawn = set(l["name"] for l in robot["links"])
    for i in range(2):
        strokes = views.nth(i).locator("line.ln")
        assert strokes.count() == capsules, (i, strokes.count(), capsules)
        titles = set(strokes.evaluate_all("ls => ls.map(l => l.querySelector('title').textContent)"))
        assert titles == drawn, (titles ^ drawn)
        # Drawn, not collapsed to nothing: the strokes have a width and lie inside the view.
        box = views.nth(i).bounding_box()
        assert box and box["width"] > 100 and box["height"] > 100, box
    assert "is drawn at its home configuration" in figure.inner_text()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / "panda-envelope.png"
    figure.screenshot(path=str(shot))
    assert shot.stat().st_size > 5_000
    context.close()


def test_with_javascript_search_narrows_to_the_tool_by_a_parameter_name(browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(url(PAGE_DIR / "index.html"))
    box = page.locator("input[type=search]")
    assert box.is_visible()
    all_tools = page.locator("section.tool").count()
    box.fill("grasp_strategy")
    visible = page.eval_on_selector_all("section.tool", "ss => ss.filter(s => !s.hidden).map(s => s.id)")
    assert visible == ["grasp_object_force_control"]
    rows = page.eval_on_selector_all(
        "#grasp_object_force_control tbody tr", "rs => rs.filter(r => !r.hidden).map(r => r.id)")
    assert rows == ["grasp_object_force_control.grasp_strategy"]
    nav = page.eval_on_selector_all("nav li", "ls => ls.filter(l => !l.hidden).map(l => l.dataset.t)")
    assert nav == ["grasp_object_force_control"]
    assert "1 of %d tools" % all_tools in page.locator("output").inner_text()
    box.fill("")
    assert page.eval_on_selector_all("section.tool", "ss => ss.filter(s => !s.hidden).length") == all_tools
    # The copy button copies the example call.
    context = page.context
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    button = page.locator("#move_arm_to_pose button.copy")
    button.click()
    page.wait_for_function("() => document.querySelector('#move_arm_to_pose button.copy').textContent !== 'Copy'")
    assert button.inner_text() in ("Copied", "Selected: press Ctrl+C")
    copied = json.loads(page.locator('[id="move_arm_to_pose:example"]').inner_text())
    assert copied["name"] == "move_arm_to_pose"
    page.close()


@pytest.mark.parametrize("javascript", [True, False])
def test_no_request_leaves_the_page(browser, javascript):
    context = browser.new_context(java_script_enabled=javascript)
    target = url(PAGE_DIR / "index.html")
    requested = []
    context.on("request", lambda r: requested.append(r.url))

    def refuse(route):
        # Intercepted: the page itself goes on; anything else would be recorded and fails.
        if route.request.url.startswith(target):
            route.continue_()
        else:
            requested.append("routed " + route.request.url)
            route.abort()

    context.route("**/*", refuse)
    page = context.new_page()
    page.goto(target, wait_until="load")
    if javascript:
        page.locator("#move_arm_to_pose button.copy").click()
        page.locator("input[type=search]").fill("force")
    page.goto(url(PAGE_DIR / "index.html", ":resource.arm"))
    page.wait_for_timeout(300)
    assert requested and all(u.startswith(target) for u in requested), requested
    assert [u for u in requested if not u.startswith(target)] == []
    context.close()


def test_screenshots_for_review(browser):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
        page = context.new_page()
        page.goto(url(PAGE_DIR / "index.html"))
        path = SCREENSHOTS / ("robot_arm-%s.png" % scheme)
        page.screenshot(path=str(path), full_page=scheme == "light")
        assert path.stat().st_size > 10_000
        figure = page.locator('[id=":envelope.arm"]')
        assert figure.count() == 1
        shot = SCREENSHOTS / ("robot_arm-envelope-%s.png" % scheme)
        figure.screenshot(path=str(shot))
        assert shot.stat().st_size > 5_000
        context.close()


def test_two_hundred_tools_load_in_under_a_second(browser):
    size = MANY_PAGE.stat().st_size
    assert size < 600 * 1024, size
    page = browser.new_page()
    loads = []
    for _ in range(3):
        page.goto(url(MANY_PAGE), wait_until="load")
        loads.append(page.evaluate("performance.getEntriesByType('navigation')[0].loadEventStart"))
    assert page.locator("section.tool").count() == 200
    start = time.perf_counter()
    page.locator("input[type=search]").fill("read_sensor_013")
    visible = page.eval_on_selector_all("section.tool", "ss => ss.filter(s => !s.hidden).map(s => s.id)")
    search_ms = (time.perf_counter() - start) * 1000
    assert visible == ["read_sensor_013"]
    print("\n200-tool page: %d bytes; load event at %s ms from navigation (median %.0f ms); "
          "one search %.0f ms" % (size, ", ".join("%.0f" % l for l in loads), statistics.median(loads), search_ms))
    assert statistics.median(loads) < 1000, loads
    page.close()

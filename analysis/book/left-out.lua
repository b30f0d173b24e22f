-- Parts of a page that the data version being rendered cannot show.
--
-- A chapter's first cell of such a part displays a `.left-out` notice saying why
-- (analysis.book.show.left_out). This filter keeps the notice and drops the rest of its
-- section: every block after it up to the next heading of the same or a higher level, or to
-- the end of the page when the notice comes before any heading (a whole chapter left out).
-- The offline preview applies the same rule (analysis.book.build.leave_out_sections).
--
-- The prose of a left-out part still ran, with its quotes reading as a placeholder
-- (analysis.report.quote.PLACEHOLDER); the render stops if that text is left on the page.

local NOTICE_CLASS = "left-out"
local PLACEHOLDER = "⟦not in this data version⟧"

local function holds_notice(block)
  if block.t ~= "Div" then
    return false
  end
  if block.classes and block.classes:includes(NOTICE_CLASS) then
    return true
  end
  local found = false
  pandoc.walk_block(block, {
    Div = function(div)
      if div.classes:includes(NOTICE_CLASS) then
        found = true
      end
    end,
  })
  return found
end

function Pandoc(doc)
  local kept = pandoc.List()
  local section_level = 0 -- the level of the last heading kept (0: none yet)
  local dropping = nil -- while set: the level of the section being left out
  for _, block in ipairs(doc.blocks) do
    if block.t == "Header" and dropping ~= nil and block.level <= dropping then
      dropping = nil
    end
    if dropping == nil then
      if block.t == "Header" then
        section_level = block.level
      end
      kept:insert(block)
      if holds_notice(block) then
        dropping = section_level
      end
    end
  end
  for _, block in ipairs(kept) do
    -- pcall: Quarto's custom nodes (figures, callouts) may not stringify; their prose does
    local ok, text = pcall(pandoc.utils.stringify, block)
    if ok and text:find(PLACEHOLDER, 1, true) then
      error("left-out.lua: a quote of a part this data version cannot show reached the page, "
        .. "outside a left-out section: " .. text:sub(1, 300))
    end
  end
  doc.blocks = kept
  return doc
end

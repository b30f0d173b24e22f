-- The PDF prints no code.
--
-- On the site, the cells that make a figure or table show their code folded under a
-- "Code: ..." summary (`echo: true` with `code-fold: true`). Folding is HTML only: Typst would
-- print every such cell open, between the prose and its figure. A cell's own `echo: true`
-- overrides any format-level `echo: false`, so this filter drops the echoed code itself (the
-- code blocks Quarto's Jupyter engine marks `cell-code`) when the output is Typst; the cells'
-- outputs, and code quoted in the prose, stay.

if FORMAT:match("typst") then
  function CodeBlock(block)
    if block.classes:includes("cell-code") then
      return {}
    end
  end
end

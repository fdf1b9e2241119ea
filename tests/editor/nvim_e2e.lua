-- Neovim's built-in LSP client against `muster lsp`: open a shipped game, misspell a
-- name, see the diagnostic, apply its quick fix, see the diagnostic go.
-- Run by tests/editor_nvim.rs with MUSTER_BIN, MUSTER_GAME and MUSTER_OUT set.
-- Written for Neovim 0.7 (Debian 12) and later: start_client and buf_attach_client.

local muster = os.getenv('MUSTER_BIN')
local game = os.getenv('MUSTER_GAME')
local out = os.getenv('MUSTER_OUT')
local log = {}

local function say(s)
  table.insert(log, s)
end

local function finish(ok)
  local f = io.open(out, 'w')
  f:write(table.concat(log, '\n') .. '\n' .. (ok and 'PASS' or 'FAIL') .. '\n')
  f:close()
  vim.cmd(ok and 'qall!' or 'cquit!')
end

local function check(cond, what)
  if not cond then
    say('failed: ' .. what)
    finish(false)
    error(what)
  end
  say('ok: ' .. what)
end

vim.cmd('edit ' .. vim.fn.fnameescape(game))
local buf = vim.api.nvim_get_current_buf()
local published = 0
local initialized = false
local id = vim.lsp.start_client({
  name = 'muster',
  cmd = { muster, 'lsp' },
  root_dir = vim.fn.fnamemodify(game, ':h'),
  flags = { debounce_text_changes = 20 },
  on_init = function() initialized = true end,
  handlers = {
    ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
      vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
      published = published + 1
    end,
  },
})
check(id ~= nil, 'the client starts muster lsp')
vim.lsp.buf_attach_client(buf, id)
check(vim.wait(10000, function() return initialized end, 10), 'the server initializes')
check(vim.wait(10000, function() return published >= 1 end, 10), 'diagnostics are published on open')
check(#vim.diagnostic.get(buf) == 0, 'the shipped game has no diagnostics')

-- Misspell `own_cells` in `runs(own_cells, ...)`.
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
local row, col
for i, l in ipairs(lines) do
  local s = l:find('runs(own_cells', 1, true)
  if s then
    row, col = i - 1, s - 1 + #'runs('
    break
  end
end
check(row ~= nil, 'the game uses own_cells in runs(...)')
local before = published
vim.api.nvim_buf_set_text(buf, row, col, row, col + #'own_cells', { 'own_cels' })
check(vim.wait(10000, function() return published > before and #vim.diagnostic.get(buf) > 0 end, 10),
  'a diagnostic arrives after the change')
local diags = vim.diagnostic.get(buf)
check(#diags == 1, 'exactly one diagnostic (got ' .. #diags .. ')')
local d = diags[1]
say('diagnostic: ' .. d.lnum .. ':' .. d.col .. ' ' .. d.message:gsub('\n', ' | '))
check(d.lnum == row and d.col == col, 'the diagnostic is on the misspelt name')
check(d.message:find('unknown name `own_cels`', 1, true) ~= nil, 'it names the misspelt name')
check(d.message:find('did you mean `own_cells`?', 1, true) ~= nil, 'it suggests the right name')

-- Ask for the quick fix, as `vim.lsp.buf.code_action()` does, and apply it.
local params = {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  range = {
    start = { line = d.lnum, character = d.col },
    ['end'] = { line = d.end_lnum, character = d.end_col },
  },
}
params.context = {
  diagnostics = { { range = params.range, message = d.message, severity = 1, code = d.code } },
}
local replies = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, 10000)
local actions = replies and replies[id] and replies[id].result or {}
check(#actions == 1, 'one quick fix is offered (got ' .. #actions .. ')')
say('quick fix: ' .. actions[1].title)
check(actions[1].title == 'replace with `own_cells`', 'the quick fix replaces the name')
before = published
vim.lsp.util.apply_workspace_edit(actions[1].edit, 'utf-16')
local fixed = vim.api.nvim_buf_get_lines(buf, row, row + 1, false)[1]
check(fixed:find('runs(own_cells', 1, true) ~= nil, 'the line is fixed: ' .. fixed)
check(vim.wait(10000, function() return published > before and #vim.diagnostic.get(buf) == 0 end, 10),
  'the diagnostic goes once the fix is applied')

vim.lsp.stop_client(id)
vim.wait(5000, function() return vim.lsp.get_client_by_id(id) == nil end, 10)
finish(true)

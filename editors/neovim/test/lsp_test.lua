-- Headless end-to-end test: Neovim with the documented configuration (../puppet-ls.lua)
-- opens the fixture manifest, waits for puppet-ls's diagnostics, asks for a hover on
-- `$port` and for the definition of the `Demo::Port` use, and writes what it received
-- as JSON. run.sh starts it and checks the JSON.
--
-- Environment: PUPPET_LS_CONFIG (the config file), PUPPET_LS_FIXTURE (the manifest),
-- PUPPET_LS_OUT (where to write the JSON), PUPPET_LS_TIMEOUT_MS (default 20000).
-- `puppet-ls` must be on PATH, as the documented configuration expects.

local out_path = assert(os.getenv('PUPPET_LS_OUT'), 'PUPPET_LS_OUT is not set')
local timeout = tonumber(os.getenv('PUPPET_LS_TIMEOUT_MS') or '') or 20000

local report = {
  nvim_version = tostring(vim.version().major) .. '.' .. vim.version().minor .. '.' .. vim.version().patch,
  errors = {},
  diagnostics = nil, -- the params of the last textDocument/publishDiagnostics for the fixture
  hover = nil,
  definition = nil,
}

local function write_report()
  local f = assert(io.open(out_path, 'w'))
  f:write(vim.json.encode(report))
  f:close()
end

local function fail(msg)
  table.insert(report.errors, msg)
end

-- Record the diagnostics exactly as the server sent them, then let Neovim handle them.
local fixture_uri
local default_diagnostics = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
  if result ~= nil and result.uri == fixture_uri then
    report.diagnostics = result
  end
  return default_diagnostics(err, result, ctx, config)
end

dofile(assert(os.getenv('PUPPET_LS_CONFIG'), 'PUPPET_LS_CONFIG is not set'))

local function clients(bufnr)
  if vim.lsp.get_clients ~= nil then
    return vim.lsp.get_clients({ bufnr = bufnr })
  end
  return vim.lsp.buf_get_clients(bufnr)
end

-- The 0-based position of the first `needle` in the buffer (plus `offset` characters).
local function position_of(bufnr, needle, offset)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local col = line:find(needle, 1, true)
    if col ~= nil then
      return { line = i - 1, character = col - 1 + (offset or 0) }
    end
  end
  error('fixture has no ' .. needle)
end

local function request(bufnr, method, position)
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = position }
  local responses, err = vim.lsp.buf_request_sync(bufnr, method, params, timeout)
  if responses == nil then
    fail(method .. ': no response (' .. tostring(err) .. ')')
    return nil
  end
  for _, response in pairs(responses) do
    if response.err ~= nil or response.error ~= nil then
      fail(method .. ': error ' .. vim.inspect(response.err or response.error))
    elseif response.result ~= nil then
      return response.result
    end
  end
  fail(method .. ': empty result')
  return nil
end

local function run()
  local fixture = assert(os.getenv('PUPPET_LS_FIXTURE'), 'PUPPET_LS_FIXTURE is not set')
  vim.cmd('edit ' .. vim.fn.fnameescape(fixture))
  local bufnr = vim.api.nvim_get_current_buf()
  fixture_uri = vim.uri_from_bufnr(bufnr)
  report.filetype = vim.bo[bufnr].filetype

  if not vim.wait(timeout, function() return #clients(bufnr) > 0 end, 50) then
    fail('no language server attached to the buffer (filetype ' .. report.filetype .. ')')
    return
  end
  local client = clients(bufnr)[1]
  report.client = client.name
  if not vim.wait(timeout, function() return client.initialized ~= false and report.diagnostics ~= nil end, 50) then
    fail('no textDocument/publishDiagnostics for the fixture within ' .. timeout .. ' ms')
  end
  -- A server may first publish an empty list and then the workspace diagnostics: wait a
  -- little longer for a non-empty one.
  vim.wait(timeout, function()
    return report.diagnostics ~= nil and #report.diagnostics.diagnostics > 0
  end, 50)
  report.neovim_diagnostics = #vim.diagnostic.get(bufnr)

  -- Hover on the `$port` assignment (on the `p`), definition on the `Port` of `Demo::Port`.
  report.hover_position = position_of(bufnr, '$port', 1)
  report.hover = request(bufnr, 'textDocument/hover', report.hover_position)
  report.definition_position = position_of(bufnr, 'Demo::Port', 6)
  report.definition = request(bufnr, 'textDocument/definition', report.definition_position)
end

vim.api.nvim_create_autocmd('VimEnter', {
  once = true,
  nested = true, -- so that :edit in the callback fires the FileType autocommands
  callback = function()
    local ok, err = pcall(run)
    if not ok then
      fail('test script error: ' .. tostring(err))
    end
    write_report()
    vim.cmd('qall!')
  end,
})

-- Neovim start-up for screenshot.sh: the documented configuration, then once the server has
-- published diagnostics, the cursor on `$port` and a hover. Writes PUPPET_LS_READY when the
-- screen is ready to capture (or after PUPPET_LS_TIMEOUT_MS without a server answer).
vim.o.background = 'dark'
vim.o.number = true
vim.o.signcolumn = 'yes'
vim.o.laststatus = 2
vim.o.ruler = true
vim.o.shortmess = vim.o.shortmess .. 'I'
vim.o.termguicolors = true
vim.api.nvim_set_hl(0, 'NormalFloat', { fg = '#d4d4d4', bg = '#2d2d40' })
vim.api.nvim_set_hl(0, 'FloatBorder', { fg = '#7aa2f7', bg = '#2d2d40' })
vim.api.nvim_set_hl(0, 'LineNr', { fg = '#6e7681' })
vim.api.nvim_set_hl(0, 'SignColumn', { bg = '#1e1e1e' })
vim.lsp.handlers['textDocument/hover'] = vim.lsp.with(vim.lsp.handlers.hover, { border = 'rounded' })
dofile(assert(os.getenv('PUPPET_LS_CONFIG')))

local ready_file = assert(os.getenv('PUPPET_LS_READY'))
local timeout = tonumber(os.getenv('PUPPET_LS_TIMEOUT_MS') or '') or 20000

local function signal_ready(what)
  local f = assert(io.open(ready_file, 'w'))
  f:write(what)
  f:close()
end

local function find(needle)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
    local col = line:find(needle, 1, true)
    if col ~= nil then
      return i, col
    end
  end
end

vim.api.nvim_create_autocmd('VimEnter', {
  once = true,
  nested = true,
  callback = function()
    local waited = 0
    local function poll()
      if #vim.diagnostic.get(0) > 0 or waited >= timeout then
        local line, col = find('$port')
        vim.api.nvim_win_set_cursor(0, { line, col })
        vim.lsp.buf.hover()
        -- Give the hover window time to open and the screen time to redraw.
        vim.defer_fn(function()
          vim.cmd('redraw!')
          signal_ready(waited >= timeout and 'timeout' or 'ok')
        end, 1500)
        return
      end
      waited = waited + 200
      vim.defer_fn(poll, 200)
    end
    poll()
  end,
})

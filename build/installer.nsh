; Included by electron-builder's NSIS installer (nsis.include in build/electron-builder.config.ts).
; Registers the loyalty-till:// link protocol (docs/pos-integration.md), which electron-builder's
; NSIS target does not do itself. SHELL_CONTEXT is HKLM for "anyone who uses this computer"
; and HKCU for "only for me", matching where the app was installed.
; The link is one quoted argument after `--` (the end of switches), so it can never add a switch.

!macro customInstall
  DeleteRegKey SHELL_CONTEXT "Software\Classes\loyalty-till"
  WriteRegStr SHELL_CONTEXT "Software\Classes\loyalty-till" "" "URL:Loyalty Till link"
  WriteRegStr SHELL_CONTEXT "Software\Classes\loyalty-till" "URL Protocol" ""
  WriteRegStr SHELL_CONTEXT "Software\Classes\loyalty-till\DefaultIcon" "" "$appExe,0"
  WriteRegStr SHELL_CONTEXT "Software\Classes\loyalty-till\shell\open\command" "" '"$appExe" -- "%1"'
!macroend

!macro customUnInstall
  ; An update runs the old uninstaller first: keep the protocol, the new version rewrites it.
  ${ifNot} ${isUpdated}
    DeleteRegKey SHELL_CONTEXT "Software\Classes\loyalty-till"
  ${endIf}
!macroend
